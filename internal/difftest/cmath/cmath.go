// Package cmath holds the complex128 counterparts of the functions of
// package math and of the float comparisons that difftest's programs use,
// for their complex-step twins (see package difftest).
//
// A twin evaluates a program at x + i·h·v with h = 1e-20, so every
// imaginary part it meets is of order h: the imaginary part of a result,
// divided by h, is the directional derivative along v, to rounding. The
// functions here keep that property:
//
//   - Exp, Log, Sqrt, Sin, Cos, Sinh, Cosh are those of math/cmplx, which
//     are analytic and lose nothing to cancellation at such points.
//   - Tanh, Pow with an integer exponent and Hypot are computed from
//     analytic formulas that do not cancel: (1−e^(−2z))/(1+e^(−2z)),
//     repeated multiplication, √(a²+b²). (cmplx.Tanh overflows for large
//     real parts and cmplx.Pow goes through polar form, where π rounds.)
//   - Atan, Atan2, Log1p, Expm1 and Erf use the first-order expansion
//     f(a + ib) = f(a) + i·b·f′(a), exact to rounding when b is of order h,
//     because cmplx.Atan computes its imaginary part as the logarithm of a
//     quantity that rounds to 1.
//   - Comparisons, Abs, Min, Max and the rounding functions look at real
//     parts only: the twin takes the branches the program takes.
//
// Every comparison and every choice of Abs, Min and Max is recorded in a
// trace (a hash of the outcomes in order), so that a check can tell
// whether two evaluations took the same path (Trace), and the smallest
// relative difference of the values compared is kept (Margin), so that it
// can tell a path that rounding could change. Both are global (Reset
// clears them): twins are not safe for concurrent use.
package cmath

import (
	"math"
	"math/cmplx"
)

var (
	trace   uint64
	margin  = math.Inf(1)
	largest float64
)

// Reset clears the trace, the margin and the largest value.
func Reset() { trace, margin, largest = 0, math.Inf(1), 0 }

// h is the size of the imaginary parts of the twins' inputs.
const h = 1e-20

// Largest returns the largest magnitude, since Reset, of the values the
// twin compared, chose or passed to a function, and of their derivatives
// (imaginary part / h): beyond 1e6 or so, cancellations of such values
// leave derivatives whose digits are rounding noise, which each mode of
// differentiation rounds its own way.
func Largest() float64 { return largest }

// Seen records the magnitude of z, the result of an arithmetic operation
// of the twin, and returns z.
func Seen(z complex128) complex128 {
	seen(z)
	return z
}

// seen records the magnitude of z.
func seen(zs ...complex128) {
	for _, z := range zs {
		r, i := math.Abs(real(z)), math.Abs(imag(z))/h
		if math.IsNaN(r) || math.IsNaN(i) {
			r, i = math.Inf(1), 0 // an overflow went through ∞ − ∞ or 0·∞
		}
		largest = max(largest, r, i)
	}
}

// Trace returns the hash of the outcomes recorded since Reset.
func Trace() uint64 { return trace }

// Margin returns the smallest relative difference between the real
// parts of two compared values since Reset, equal ones left out (a value
// compared with itself, max(s, s)): below 1e-12 or so, the program itself
// may have taken the other branch, rounding differently.
func Margin() float64 { return margin }

// compared records the margin of a comparison of a and b.
func compared(a, b complex128) {
	seen(a, b)
	ra, rb := real(a), real(b)
	if s := math.Abs(ra) + math.Abs(rb); s > 0 && ra != rb {
		margin = min(margin, math.Abs(ra-rb)/s)
	}
}

// record appends the outcome k to the trace (FNV-1a step).
func record(k uint64) {
	trace = (trace ^ (k + 1)) * 1099511628211
}

func recordBool(b bool) bool {
	if b {
		record(1)
	} else {
		record(0)
	}
	return b
}

// Less reports real(a) < real(b); Leq, Greater, Geq, Eq and Neq likewise.
func Less(a, b complex128) bool    { compared(a, b); return recordBool(real(a) < real(b)) }
func Leq(a, b complex128) bool     { compared(a, b); return recordBool(real(a) <= real(b)) }
func Greater(a, b complex128) bool { compared(a, b); return recordBool(real(a) > real(b)) }
func Geq(a, b complex128) bool     { compared(a, b); return recordBool(real(a) >= real(b)) }
func Eq(a, b complex128) bool      { return recordBool(real(a) == real(b)) }
func Neq(a, b complex128) bool     { return recordBool(real(a) != real(b)) }

// Abs returns z or −z, whichever has a nonnegative real part (z at 0: a
// kink, where gadgen's rule gives a zero derivative).
func Abs(z complex128) complex128 {
	seen(z)
	if recordBool(real(z) < 0) {
		return -z
	}
	return z
}

// Min returns the argument with the smallest real part, the first of
// equal ones, like the builtin min on floats at a tie.
func Min(x complex128, ys ...complex128) complex128 {
	seen(x)
	k := 0
	for i, y := range ys {
		compared(x, y)
		if real(y) < real(x) {
			x, k = y, i+1
		}
	}
	record(uint64(k))
	return x
}

// Max returns the argument with the largest real part, the first of
// equal ones.
func Max(x complex128, ys ...complex128) complex128 {
	seen(x)
	k := 0
	for i, y := range ys {
		compared(x, y)
		if real(y) > real(x) {
			x, k = y, i+1
		}
	}
	record(uint64(k))
	return x
}

func Exp(z complex128) complex128  { seen(z); return cmplx.Exp(z) }
func Log(z complex128) complex128  { seen(z); return cmplx.Log(z) }
func Sqrt(z complex128) complex128 { seen(z); return cmplx.Sqrt(z) }
func Sin(z complex128) complex128  { seen(z); return cmplx.Sin(z) }
func Cos(z complex128) complex128  { seen(z); return cmplx.Cos(z) }
func Sinh(z complex128) complex128 { seen(z); return cmplx.Sinh(z) }
func Cosh(z complex128) complex128 { seen(z); return cmplx.Cosh(z) }

// Tanh is tanh(z) = ±(1 − e^(∓2z))/(1 + e^(∓2z)), the sign of real(z).
func Tanh(z complex128) complex128 {
	seen(z)
	if real(z) < 0 {
		return -Tanh(-z)
	}
	w := cmplx.Exp(-2 * z)
	return (1 - w) / (1 + w)
}

// Pow returns z**p for an integer p (by repeated multiplication), and
// cmplx.Pow otherwise.
func Pow(z, p complex128) complex128 {
	seen(z, p)
	n := real(p)
	if imag(p) != 0 || n != math.Trunc(n) || math.Abs(n) > 64 {
		return cmplx.Pow(z, p)
	}
	k := int(math.Abs(n))
	r := complex(1, 0)
	for range k {
		r *= z
	}
	if n < 0 {
		return 1 / r
	}
	return r
}

// Hypot is √(a² + b²).
func Hypot(a, b complex128) complex128 { seen(a, b); return cmplx.Sqrt(a*a + b*b) }

// firstOrder returns f(a) + i·b·df(a) for z = a + ib.
func firstOrder(z complex128, f, df func(float64) float64) complex128 {
	seen(z)
	a, b := real(z), imag(z)
	return complex(f(a), b*df(a))
}

// Atan is arctan, to first order in imag(z).
func Atan(z complex128) complex128 {
	return firstOrder(z, math.Atan, func(a float64) float64 { return 1 / (1 + a*a) })
}

// Atan2 is math.Atan2(y, x) to first order in the imaginary parts.
func Atan2(y, x complex128) complex128 {
	seen(y, x)
	a, b := real(y), real(x)
	d := a*a + b*b
	return complex(math.Atan2(a, b), (b*imag(y)-a*imag(x))/d)
}

// Log1p is log(1+z), to first order in imag(z).
func Log1p(z complex128) complex128 {
	return firstOrder(z, math.Log1p, func(a float64) float64 { return 1 / (1 + a) })
}

// Expm1 is e^z − 1, to first order in imag(z).
func Expm1(z complex128) complex128 { return firstOrder(z, math.Expm1, math.Exp) }

// Erf is the error function, to first order in imag(z).
func Erf(z complex128) complex128 {
	return firstOrder(z, math.Erf, func(a float64) float64 { return 2 / math.SqrtPi * math.Exp(-a*a) })
}

func step(z complex128, f func(float64) float64) complex128 { return complex(f(real(z)), 0) }

// Floor, Ceil, Trunc and Round are piecewise constant: their imaginary
// part is zero.
func Floor(z complex128) complex128 { return step(z, math.Floor) }
func Ceil(z complex128) complex128  { return step(z, math.Ceil) }
func Trunc(z complex128) complex128 { return step(z, math.Trunc) }
func Round(z complex128) complex128 { return step(z, math.Round) }
