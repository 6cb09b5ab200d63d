// Package nesting is the end-to-end case of differentiating generated
// derivatives: a function that calls a generated function is
// differentiated through the generated body, and a cross-package
// directive may name a generated function.
package nesting

import "math"

// Cube is x³.
//
//gad:taylor order=2
func Cube(x float64) float64 { return x * x * x }

// CubeSeries is x³ + 3x² + 3x, from the jet of Cube along x + t; its JVP
// differentiates CubeTaylor.
//
//gad:jvp
func CubeSeries(x float64) float64 {
	y, y1, y2 := CubeTaylor(x, 1, 0)
	return y + y1 + y2
}

// Wave is sin(x)·exp(x/2).
//
//gad:jvp
func Wave(x float64) float64 { return math.Sin(x) * math.Exp(x/2) }

// Slope is Wave′(x), by Wave's JVP; its jet holds Wave's derivatives of
// order 1 to 4 (Taylor mode over forward mode).
//
//gad:taylor order=3 seed=line
func Slope(x float64) float64 {
	_, d := WaveJVP(x, 1)
	return d
}

// Rosenbrock is Σ 100·(x[i+1] − x[i]²)² + (1 − x[i])².
//
//gad:grad
func Rosenbrock(x []float64) float64 {
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		sum += 100*a*a + b*b
	}
	return sum
}

// GradOf calls the generated gradient; its JVP is forward mode over
// reverse mode: GradOfJVP(x, v, g, hv) adds ∇f(x) to g and H(x)·v to hv.
//
//gad:jvp
func GradOf(x, g []float64) float64 { return RosenbrockGrad(x, g) }

// Chain is Σ x[i]·pow(x[i] − x[i+1], 3) through pow, which is recursive
// and so not inlined: its gradient calls pow's generated reverse-mode
// variant.
//
//gad:grad
func Chain(x []float64) float64 {
	s := 0.0
	for i := 0; i+1 < len(x); i++ {
		s += x[i] * pow(x[i]-x[i+1], 3)
	}
	return s
}

func pow(a float64, n int) float64 {
	if n == 0 {
		return 1
	}
	return a * pow(a, n-1)
}

// ChainGradOf calls Chain's generated gradient: its JVP differentiates the
// generated functions the gradient calls in turn (the JVP of pow's
// reverse-mode variant).
//
//gad:jvp
func ChainGradOf(x, g []float64) float64 { return ChainGrad(x, g) }

// GradDot is ∇f(x)·v through Rosenbrock's generated gradient, which
// accumulates ∇f into g: its gradient, reverse mode over reverse mode, is
// H(x)·v.
//
//gad:grad wrt=x
func GradDot(x, v []float64) float64 {
	g := make([]float64, len(x))
	RosenbrockGrad(x, g)
	s := 0.0
	for i := range g {
		s += g[i] * v[i]
	}
	return s
}

// Cubes stores x[i]³ in dst.
//
//gad:jvp
func Cubes(dst, x []float64) {
	for i := range x {
		dst[i] = x[i] * x[i] * x[i]
	}
}

// SlopeSum is Σ 3x[i]²·v[i] through Cubes' generated JVP, which writes the
// tangents into a slice: its gradient, reverse mode over forward mode, is
// 6x[i]·v[i].
//
//gad:grad wrt=x
func SlopeSum(x, v []float64) float64 {
	dst := make([]float64, len(x))
	ddst := make([]float64, len(x))
	CubesJVP(dst, ddst, x, v)
	s := 0.0
	for _, d := range ddst {
		s += d
	}
	return s
}

// coupled is f(p, q) = |p|² − |q|² + p₀q₀ + p₀p₁q₀q₁/5, whose gradient in
// q depends on p.
//
//gad:grad wrt=q
//gad:jvp wrt=q
func coupled(p, q []float64) float64 {
	return p[0]*p[0] + p[1]*p[1] - q[0]*q[0] - q[1]*q[1] + p[0]*q[0] + p[0]*p[1]*q[0]*q[1]/5
}

// ascend takes 8 steps of gradient ascent from (1, 1), grad(g, q)
// storing the gradient at q in g.
func ascend(grad func(g, q []float64)) []float64 {
	q := []float64{1, 1}
	g := make([]float64, 2)
	for range 8 {
		grad(g, q)
		for i := range q {
			q[i] += 0.2 * g[i]
		}
	}
	return q
}

// PeakR is f(p, q) where 8 steps of gradient ascent in q end, with the
// gradient in q by reverse mode: its gradient is reverse mode over
// reverse mode, its JVP forward over reverse, each through a function
// literal called in a loop.
//
//gad:grad
//gad:jvp
func PeakR(p []float64) float64 {
	return coupled(p, ascend(func(g, q []float64) {
		g[0], g[1] = 0, 0
		coupledGrad(p, q, g)
	}))
}

// PeakF is PeakR with the gradient in q by forward mode: its gradient is
// reverse mode over forward mode, its JVP forward over forward.
//
//gad:grad
//gad:jvp
func PeakF(p []float64) float64 {
	return coupled(p, ascend(func(g, q []float64) {
		_, g[0] = coupledJVP(p, q, []float64{1, 0})
		_, g[1] = coupledJVP(p, q, []float64{0, 1})
	}))
}

// Wiggle is Σ ½·sin(q[i]) + Σ (q[i+1] − q[i])².
//
//gad:jvp
func Wiggle(q []float64) float64 {
	e := 0.0
	for i := range q {
		e += 0.5 * math.Sin(q[i])
	}
	for i := 0; i+1 < len(q); i++ {
		d := q[i+1] - q[i]
		e += d * d
	}
	return e
}

// SelfSlope is Wiggle(x) + ∇Wiggle(x)·x through Wiggle's generated JVP
// called with x as both its point and its tangent: gadgen differentiates
// the generated function specialized for arguments that share memory
// (reverse mode over forward mode; found by difftest, which crashed
// gadgen here).
//
//gad:grad
func SelfSlope(x []float64) float64 {
	w, d := WiggleJVP(x, x)
	return w + d
}

// U is a tiny network u(x; w) of a point x of the plane, whose Laplacian,
// Hessian diagonal and Hessian-vector products in x are generated.
//
//gad:laplacian wrt=x
//gad:hessdiag wrt=x
//gad:hvp wrt=x
func U(w []float64, x []float64) float64 {
	h := 0.0
	for j := 0; j < 3; j++ {
		h += w[3*j+2] * math.Tanh(w[3*j]*x[0]+w[3*j+1]*x[1])
	}
	return h
}

// Residual is a physics-informed loss, Σ (Δu − f)² over the points: its
// gradient in the weights differentiates the generated ULaplacian.
//
//gad:grad wrt=w
func Residual(w []float64, pts [][]float64) float64 {
	s := 0.0
	for _, p := range pts {
		_, lap := ULaplacian(w, p)
		r := lap - (p[0]*p[0] + p[1])
		s += r * r
	}
	return s
}

// Curvature reads U's Hessian diagonal and a Hessian-vector product at p:
// its gradient in the weights differentiates UHessDiag and UHVP.
//
//gad:grad wrt=w
func Curvature(w []float64, p []float64) float64 {
	d := make([]float64, 2)
	UHessDiag(w, p, d)
	hv := make([]float64, 2)
	UHVP(w, p, []float64{1, -0.5}, hv)
	return d[0]*d[1] + hv[0]*hv[1]
}
