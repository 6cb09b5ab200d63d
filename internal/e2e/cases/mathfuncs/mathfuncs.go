// Package mathfuncs is an end-to-end case of gadgen's forward mode: every
// differentiable function of package math, the piecewise-constant ones
// (zero derivative), the builtins min and max, and a few compositions.
//
// Each function calls its math counterpart directly, so that a failure
// names the rule at fault.
package mathfuncs

//go:generate gadgen

import "math"

// Sin returns math.Sin(x).
//
//gad:jvp
//gad:grad
func Sin(x float64) float64 {
	return math.Sin(x)
}

// Cos returns math.Cos(x).
//
//gad:jvp
//gad:grad
func Cos(x float64) float64 {
	return math.Cos(x)
}

// Tan returns math.Tan(x).
//
//gad:jvp
//gad:grad
func Tan(x float64) float64 {
	return math.Tan(x)
}

// Asin returns math.Asin(x).
//
//gad:jvp
//gad:grad
func Asin(x float64) float64 {
	return math.Asin(x)
}

// Acos returns math.Acos(x).
//
//gad:jvp
//gad:grad
func Acos(x float64) float64 {
	return math.Acos(x)
}

// Atan returns math.Atan(x).
//
//gad:jvp
//gad:grad
func Atan(x float64) float64 {
	return math.Atan(x)
}

// Sinh returns math.Sinh(x).
//
//gad:jvp
//gad:grad
func Sinh(x float64) float64 {
	return math.Sinh(x)
}

// Cosh returns math.Cosh(x).
//
//gad:jvp
//gad:grad
func Cosh(x float64) float64 {
	return math.Cosh(x)
}

// Tanh returns math.Tanh(x).
//
//gad:jvp
//gad:grad
func Tanh(x float64) float64 {
	return math.Tanh(x)
}

// Asinh returns math.Asinh(x).
//
//gad:jvp
//gad:grad
func Asinh(x float64) float64 {
	return math.Asinh(x)
}

// Acosh returns math.Acosh(x).
//
//gad:jvp
//gad:grad
func Acosh(x float64) float64 {
	return math.Acosh(x)
}

// Atanh returns math.Atanh(x).
//
//gad:jvp
//gad:grad
func Atanh(x float64) float64 {
	return math.Atanh(x)
}

// Exp returns math.Exp(x).
//
//gad:jvp
//gad:grad
func Exp(x float64) float64 {
	return math.Exp(x)
}

// Exp2 returns math.Exp2(x).
//
//gad:jvp
//gad:grad
func Exp2(x float64) float64 {
	return math.Exp2(x)
}

// Expm1 returns math.Expm1(x).
//
//gad:jvp
//gad:grad
func Expm1(x float64) float64 {
	return math.Expm1(x)
}

// Log returns math.Log(x).
//
//gad:jvp
//gad:grad
func Log(x float64) float64 {
	return math.Log(x)
}

// Log2 returns math.Log2(x).
//
//gad:jvp
//gad:grad
func Log2(x float64) float64 {
	return math.Log2(x)
}

// Log10 returns math.Log10(x).
//
//gad:jvp
//gad:grad
func Log10(x float64) float64 {
	return math.Log10(x)
}

// Log1p returns math.Log1p(x).
//
//gad:jvp
//gad:grad
func Log1p(x float64) float64 {
	return math.Log1p(x)
}

// Sqrt returns math.Sqrt(x).
//
//gad:jvp
//gad:grad
func Sqrt(x float64) float64 {
	return math.Sqrt(x)
}

// Cbrt returns math.Cbrt(x).
//
//gad:jvp
//gad:grad
func Cbrt(x float64) float64 {
	return math.Cbrt(x)
}

// Abs returns math.Abs(x).
//
//gad:jvp
//gad:grad
func Abs(x float64) float64 {
	return math.Abs(x)
}

// Erf returns math.Erf(x).
//
//gad:jvp
//gad:grad
func Erf(x float64) float64 {
	return math.Erf(x)
}

// Erfc returns math.Erfc(x).
//
//gad:jvp
//gad:grad
func Erfc(x float64) float64 {
	return math.Erfc(x)
}

// Erfinv returns math.Erfinv(x).
//
//gad:jvp
//gad:grad
func Erfinv(x float64) float64 {
	return math.Erfinv(x)
}

// Erfcinv returns math.Erfcinv(x).
//
//gad:jvp
//gad:grad
func Erfcinv(x float64) float64 {
	return math.Erfcinv(x)
}

// Gamma returns math.Gamma(x).
//
//gad:jvp
//gad:grad
func Gamma(x float64) float64 {
	return math.Gamma(x)
}

// J0 returns math.J0(x).
//
//gad:jvp
//gad:grad
func J0(x float64) float64 {
	return math.J0(x)
}

// J1 returns math.J1(x).
//
//gad:jvp
//gad:grad
func J1(x float64) float64 {
	return math.J1(x)
}

// Y0 returns math.Y0(x).
//
//gad:jvp
//gad:grad
func Y0(x float64) float64 {
	return math.Y0(x)
}

// Y1 returns math.Y1(x).
//
//gad:jvp
//gad:grad
func Y1(x float64) float64 {
	return math.Y1(x)
}

// Floor returns x·math.Floor(x): math.Floor is piecewise constant, so the
// derivative is math.Floor(x).
//
//gad:jvp
//gad:grad
func Floor(x float64) float64 {
	return x * math.Floor(x)
}

// Ceil returns x·math.Ceil(x): math.Ceil is piecewise constant, so the
// derivative is math.Ceil(x).
//
//gad:jvp
//gad:grad
func Ceil(x float64) float64 {
	return x * math.Ceil(x)
}

// Trunc returns x·math.Trunc(x): math.Trunc is piecewise constant, so the
// derivative is math.Trunc(x).
//
//gad:jvp
//gad:grad
func Trunc(x float64) float64 {
	return x * math.Trunc(x)
}

// Round returns x·math.Round(x): math.Round is piecewise constant, so the
// derivative is math.Round(x).
//
//gad:jvp
//gad:grad
func Round(x float64) float64 {
	return x * math.Round(x)
}

// RoundToEven returns x·math.RoundToEven(x): math.RoundToEven is piecewise constant, so the
// derivative is math.RoundToEven(x).
//
//gad:jvp
//gad:grad
func RoundToEven(x float64) float64 {
	return x * math.RoundToEven(x)
}

// Atan2 returns math.Atan2(y, x).
//
//gad:jvp
//gad:grad
func Atan2(y, x float64) float64 {
	return math.Atan2(y, x)
}

// Pow returns math.Pow(x, y).
//
//gad:jvp
//gad:grad
func Pow(x, y float64) float64 {
	return math.Pow(x, y)
}

// Hypot returns math.Hypot(p, q).
//
//gad:jvp
//gad:grad
func Hypot(p, q float64) float64 {
	return math.Hypot(p, q)
}

// Max returns math.Max(x, y).
//
//gad:jvp
//gad:grad
func Max(x, y float64) float64 {
	return math.Max(x, y)
}

// Min returns math.Min(x, y).
//
//gad:jvp
//gad:grad
func Min(x, y float64) float64 {
	return math.Min(x, y)
}

// Mod returns math.Mod(x, y).
//
//gad:jvp
//gad:grad
func Mod(x, y float64) float64 {
	return math.Mod(x, y)
}

// Remainder returns math.Remainder(x, y).
//
//gad:jvp
//gad:grad
func Remainder(x, y float64) float64 {
	return math.Remainder(x, y)
}

// Dim returns math.Dim(x, y).
//
//gad:jvp
//gad:grad
func Dim(x, y float64) float64 {
	return math.Dim(x, y)
}

// Copysign returns math.Copysign(f, sign).
//
//gad:jvp
//gad:grad
func Copysign(f, sign float64) float64 {
	return math.Copysign(f, sign)
}

// FMA returns math.FMA(x, y, z) = x·y + z.
//
//gad:jvp
//gad:grad
func FMA(x, y, z float64) float64 {
	return math.FMA(x, y, z)
}

// PowConst raises to a constant non-integer power.
//
//gad:jvp
//gad:grad
func PowConst(x float64) float64 {
	return math.Pow(x, 2.5)
}

// PowInt raises to a constant integer power; x may be negative.
//
//gad:jvp
//gad:grad
func PowInt(x float64) float64 {
	return math.Pow(x, 3)
}

// PowBase raises a constant to a varied power.
//
//gad:jvp
//gad:grad
func PowBase(y float64) float64 {
	return math.Pow(2, y)
}

// Jn returns the Bessel function of the first kind of order 3.
//
//gad:jvp
//gad:grad
func Jn(x float64) float64 {
	return math.Jn(3, x)
}

// Yn returns the Bessel function of the second kind of order 2.
//
//gad:jvp
//gad:grad
func Yn(x float64) float64 {
	return math.Yn(2, x)
}

// Ldexp returns x·2ⁿ.
//
//gad:jvp
//gad:grad
func Ldexp(x float64, n int) float64 {
	return math.Ldexp(x, n)
}

// Sincos returns both results of math.Sincos.
//
//gad:jvp
func Sincos(x float64) (float64, float64) {
	return math.Sincos(x)
}

// Modf returns both results of math.Modf: the integer part has derivative
// zero, the fractional part derivative one.
//
//gad:jvp
func Modf(x float64) (float64, float64) {
	return math.Modf(x)
}

// Frexp returns both results of math.Frexp; the exponent is an int and has
// no tangent.
//
//gad:jvp
func Frexp(x float64) (float64, int) {
	return math.Frexp(x)
}

// Lgamma returns both results of math.Lgamma; the sign is an int and has
// no tangent.
//
//gad:jvp
func Lgamma(x float64) (float64, int) {
	return math.Lgamma(x)
}

// Min3 uses the builtin min with three varied arguments.
//
//gad:jvp
//gad:grad
func Min3(x, y, z float64) float64 {
	return min(x, y, z)
}

// Max2 uses the builtin max with a varied expression and a constant.
//
//gad:jvp
//gad:grad
func Max2(x, y float64) float64 {
	return max(x, 2*y, -1)
}

// Softplus is log(1 + eˣ), switching to x for large x.
//
//gad:jvp
//gad:grad
func Softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// NormalPDF is the density of the normal distribution N(mu, sigma²) at x.
//
//gad:jvp
//gad:grad
func NormalPDF(x, mu, sigma float64) float64 {
	z := (x - mu) / sigma
	return math.Exp(-z*z/2) / (sigma * math.Sqrt(2*math.Pi))
}

// Chain composes several functions of math.
//
//gad:jvp
//gad:grad
func Chain(x float64) float64 {
	return math.Sin(math.Exp(math.Cos(x))) * math.Sqrt(1+math.Tanh(x)*math.Tanh(x))
}
