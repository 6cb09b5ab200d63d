// Package rules is an end-to-end case of //gad:rule: functions whose
// derivatives their authors give by hand, which every mode uses wherever
// the functions are called, and when they are differentiated themselves.
package rules

//go:generate gadgen

import "math"

// fastSqrt returns √x for x > 0 by Newton's method from a first guess
// taken from the bits of x. gadgen cannot differentiate math.Float64bits;
// the rule says what the derivative is.
//
//gad:rule x="0.5 / r"
//gad:jvp test=true
//gad:taylor order=3
func fastSqrt(x float64) float64 {
	y := math.Float64frombits(math.Float64bits(x)>>1 + 0x1ff8000000000000)
	for range 6 {
		y = 0.5 * (y + x/y)
	}
	return y
}

// softplus is log(1 + eˣ), computed without overflow; the rule is the
// logistic function, 1 where softplus is x.
//
//gad:rule x="where(x > 30, 1, 1 / (1 + math.Exp(-x)))"
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// smoothMax is log(eᵃ + eᵇ), a smooth maximum; the rule names the result.
//
//gad:rule a="math.Exp(a - r)" b="math.Exp(b - r)"
//gad:grad
func smoothMax(a, b float64) float64 {
	m := max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}

// Loss calls the three ruled functions in a loop.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
//gad:hvp
func Loss(x []float64) float64 {
	s := 0.0
	for i, xi := range x {
		s += softplus(xi) * fastSqrt(1+xi*xi)
		if i > 0 {
			s += smoothMax(x[i-1], xi)
		}
	}
	return s
}
