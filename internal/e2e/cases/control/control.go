// Package control is an end-to-end case of gadgen's forward mode: if/else,
// switch with and without a tag, fallthrough, short-circuit conditions,
// early returns, named results and bare returns.
package control

//go:generate gadgen

import "math"

// Piecewise is an if/else-if/else chain on a varied value.
//
//gad:jvp
//gad:grad
func Piecewise(x float64) float64 {
	if x < -1 {
		return -x * x
	} else if x < 1 {
		return x * x * x
	} else {
		return 2*x - 1
	}
}

// Fold uses if without else to change a variable.
//
//gad:jvp
//gad:grad
func Fold(x, y float64) float64 {
	s := x * y
	if s < 0 {
		s = -0.5 * s
	}
	if x > y {
		s += x
	}
	return s + y
}

// Legendre returns the Legendre polynomial P_k(x), k ≤ 4: a switch with a
// tag that is not varied.
//
//gad:jvp
//gad:grad
func Legendre(k int, x float64) float64 {
	switch k {
	case 0:
		return 1
	case 1:
		return x
	case 2:
		return (3*x*x - 1) / 2
	case 3:
		return (5*x*x*x - 3*x) / 2
	default:
		return (35*x*x*x*x - 30*x*x + 3) / 8
	}
}

// Regime is a switch without a tag on varied values.
//
//gad:jvp
//gad:grad
func Regime(x, y float64) float64 {
	var r float64
	switch {
	case x > y:
		r = x - y*y
	case x < -y:
		r = x * y * y
	default:
		r = x * y
	}
	return 2 * r
}

// Fall uses fallthrough and a case list.
//
//gad:jvp
//gad:grad
func Fall(k int, x float64) float64 {
	s := 0.0
	switch k {
	case 3, 4:
		s = x * x * x
		fallthrough
	case 2:
		s += x * x
		fallthrough
	case 1:
		s += x
	}
	return s
}

// Inside combines conditions with && and ||.
//
//gad:jvp
//gad:grad
func Inside(x, y float64) float64 {
	if x > 0 && y > 0 || x < -1 {
		return x * y
	}
	return x + y
}

// FirstAbove returns as soon as the running sum of squares exceeds limit.
//
//gad:jvp
//gad:grad
func FirstAbove(x []float64, limit float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
		if s > limit {
			return s * limit
		}
	}
	return -s
}

// Stats has named results and bare returns, one of them early.
//
//gad:jvp
func Stats(x []float64) (mean, variance float64) {
	if len(x) == 0 {
		return
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := v - mean
		variance += d * d
	}
	variance /= float64(len(x))
	return
}

// Polar has named results assigned and returned explicitly.
//
//gad:jvp
func Polar(x, y float64) (r, theta float64) {
	r = math.Hypot(x, y)
	theta = math.Atan2(y, x)
	return r, theta
}

// Clamp returns early from inside nested ifs.
//
//gad:jvp
//gad:grad
func Clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		if hi < 0 {
			return -hi * x
		}
		return hi
	}
	return x
}
