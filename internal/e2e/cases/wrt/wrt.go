// Package wrt is an end-to-end case of gadgen's forward mode: wrt= selects
// which parameters are varied; the others get no tangent parameter.
package wrt

//go:generate gadgen

import "math"

// PartialX is varied in x only: PartialXJVP(x, dx, y float64).
//
//gad:jvp wrt=x
func PartialX(x, y float64) float64 {
	return x*x*y + math.Sin(y)
}

// PartialY is varied in y only: PartialYJVP(x, y, dy float64).
//
//gad:jvp wrt=y
func PartialY(x, y float64) float64 {
	return x*x*y + math.Sin(y)
}

// Loss is varied in the weights, not in the data: LossJVP(w, dw, data).
//
//gad:jvp wrt=w
func Loss(w, data []float64) float64 {
	s := 0.0
	for i, d := range data {
		r := w[i%len(w)]*d - 1
		s += r * r
	}
	return s
}

// Outer is varied in a and c: OuterJVP(a, da, b, c, dc float64).
//
//gad:jvp wrt=a,c
func Outer(a, b, c float64) float64 {
	return a*b*c + a/c + b*b
}

// Params are the parameters of a normal distribution.
type Params struct {
	Mu, Sigma float64
}

// LogLik is the log-likelihood of the data xs, varied in the parameters
// only: LogLikJVP(p, dp Params, xs []float64).
//
//gad:jvp wrt=p
func LogLik(p Params, xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		z := (x - p.Mu) / p.Sigma
		s -= z*z/2 + math.Log(p.Sigma)
	}
	return s
}

// Scale stores a·x into dst, varied in the destination and x but not in a:
// ScaleJVP(dst, ddst []float64, a float64, x, dx []float64).
//
//gad:jvp wrt=dst,x
func Scale(dst []float64, a float64, x []float64) {
	for i, v := range x {
		dst[i] = a * v * v
	}
}

// All names every float parameter: the same as no wrt.
//
//gad:jvp wrt=x,y
func All(x, y float64) float64 {
	return math.Exp(x) * y
}

// A Layer holds fixed weights, a row per input.
type Layer struct {
	W [][]float64
}

// scaled returns a fresh slice of the inputs x weighted by the rows' sums:
// its result is varied with x but shares no memory with l.
func scaled(l *Layer, x []float64) []float64 {
	out := make([]float64, len(x))
	for i, row := range l.W {
		for _, w := range row {
			out[i] += w * x[i]
		}
	}
	return out
}

// Energy is varied in x, not in the layer: EnergyJVP(l, x, dx). The
// slice scaled returns is fresh, so the layer it read stays fixed (forward
// mode took a call's result to alias every argument, and refused l:
// "values that depend on the varied inputs are stored through it").
//
//gad:jvp wrt=x
//gad:taylor order=1 lanes=2 wrt=x
func Energy(l *Layer, x []float64) float64 {
	y := scaled(l, x)
	s := 0.0
	for i, v := range y {
		s += v * math.Sin(v+x[i])
	}
	return s
}
