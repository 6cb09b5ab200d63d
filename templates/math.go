// This file defines the rules of package math: one per exported function,
// in alphabetical order, each with its mathematics in a comment. The
// finite-difference test (fd_test.go) checks every Smooth rule.

package templates

import "math"

// unary returns the Smooth rule of math.name(x float64) float64, the
// function f, with derivative dr/dx = partial, tested on [lo, hi].
func unary(name string, f func(float64) float64, partial string, lo, hi float64, m string) *Rule {
	return &Rule{
		Pkg: "math", Name: name, Func: f, Params: []string{"x"}, Results: []string{"r"},
		Kind: Smooth, Partials: [][]string{{partial}},
		Domain: [][2]float64{{lo, hi}}, Math: m,
	}
}

// piecewise returns the PiecewiseConstant rule of math.name, the function
// f, with the given parameters, results and test domain.
func piecewise(name string, f any, params, results []string, domain [][2]float64, m string) *Rule {
	return &Rule{
		Pkg: "math", Name: name, Func: f, Params: params, Results: results,
		Kind: PiecewiseConstant, Domain: domain, Math: m,
	}
}

// rounding returns the PiecewiseConstant rule of a rounding function
// math.name(x float64) float64, the function f.
func rounding(name string, f func(float64) float64, m string) *Rule {
	return piecewise(name, f, []string{"x"}, []string{"r"}, [][2]float64{{-10, 10}}, m)
}

// bits returns the NotDifferentiable rule of math.name, the function f, a
// reinterpretation of bits.
func bits(name string, f any, param string) *Rule {
	return &Rule{
		Pkg: "math", Name: name, Func: f, Params: []string{param}, Results: []string{"r"},
		Kind:   NotDifferentiable,
		Math:   name + " reinterprets the bits of its argument",
		Reason: "bit reinterpretation between floats and integers has no derivative",
	}
}

var mathRules = []*Rule{
	// d/dx |x| = sign x, with sign 0 = 0
	{
		Pkg: "math", Name: "Abs", Func: math.Abs,
		Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x > 0, 1, where(x < 0, -1, 0))"}},
		Domain:   [][2]float64{{-3, 3}},
		Math:     "d/dx |x| = sign x",
		Note:     "Abs'(0) = 0 (the sign function, as PyTorch; a subgradient)",
	},
	// d/dx acos x = -1/√(1-x²)
	unary("Acos", math.Acos, "-1 / math.Sqrt((1-x)*(1+x))", -0.95, 0.95, "d/dx acos x = -1/√(1-x²)"),
	// d/dx acosh x = 1/√(x²-1)
	unary("Acosh", math.Acosh, "1 / math.Sqrt((x-1)*(x+1))", 1.05, 10, "d/dx acosh x = 1/√(x²-1)"),
	// d/dx asin x = 1/√(1-x²)
	unary("Asin", math.Asin, "1 / math.Sqrt((1-x)*(1+x))", -0.95, 0.95, "d/dx asin x = 1/√(1-x²)"),
	// d/dx asinh x = 1/√(x²+1)
	unary("Asinh", math.Asinh, "1 / math.Sqrt(x*x+1)", -10, 10, "d/dx asinh x = 1/√(x²+1)"),
	// d/dx atan x = 1/(1+x²)
	unary("Atan", math.Atan, "1 / (1 + x*x)", -10, 10, "d/dx atan x = 1/(1+x²)"),
	// ∂/∂y atan2(y, x) = x/(x²+y²); ∂/∂x atan2(y, x) = -y/(x²+y²)
	{
		Pkg: "math", Name: "Atan2", Func: math.Atan2,
		Params: []string{"y", "x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"x / (x*x + y*y)", "-y / (x*x + y*y)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "∂/∂y atan2(y, x) = x/(x²+y²); ∂/∂x atan2(y, x) = -y/(x²+y²)",
		Note:     "NaN at the origin; the jump of ±2π across the negative x axis is ignored",
	},
	// d/dx atanh x = 1/(1-x²)
	unary("Atanh", math.Atanh, "1 / ((1 - x) * (1 + x))", -0.95, 0.95, "d/dx atanh x = 1/(1-x²)"),
	// d/dx ∛x = 1/(3 ∛x²)
	{
		Pkg: "math", Name: "Cbrt", Func: math.Cbrt,
		Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1 / (3 * r * r)"}},
		Domain:   [][2]float64{{-5, 5}},
		Math:     "d/dx ∛x = 1/(3 ∛x²)",
		Note:     "+Inf at 0",
	},
	// ceil x is piecewise constant
	rounding("Ceil", math.Ceil, "d/dx ⌈x⌉ = 0 (undefined at integers)"),
	// ∂/∂f copysign(f, sign) = sign f · sign(sign); ∂/∂sign = 0
	{
		Pkg: "math", Name: "Copysign", Func: math.Copysign,
		Params: []string{"f", "sign"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(f == 0, 0, math.Copysign(1, f) * math.Copysign(1, sign))", ""}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "copysign(f, s) = |f| · sgn s: ∂/∂f = sgn f · sgn s, ∂/∂s = 0",
		Note: "the signs are those of the sign bits (so -0 counts as negative); " +
			"∂/∂f = 0 at f = 0, as Abs; the jump at sign = 0 gives no derivative",
	},
	// d/dx cos x = -sin x
	unary("Cos", math.Cos, "-math.Sin(x)", -10, 10, "d/dx cos x = -sin x"),
	// d/dx cosh x = sinh x
	unary("Cosh", math.Cosh, "math.Sinh(x)", -5, 5, "d/dx cosh x = sinh x"),
	// dim(x, y) = max(x-y, 0): ∂/∂x = [x > y], ∂/∂y = -[x > y]
	{
		Pkg: "math", Name: "Dim", Func: math.Dim,
		Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x > y, 1, 0)", "where(x > y, -1, 0)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "dim(x, y) = max(x-y, 0): ∂/∂x = [x > y], ∂/∂y = -[x > y]",
		Note:     "both partials are 0 at x = y (as ReLU'(0) = 0)",
	},
	// d/dx erf x = 2/√π exp(-x²)
	unary("Erf", math.Erf, "2 / math.SqrtPi * math.Exp(-x*x)", -3, 3, "d/dx erf x = 2/√π exp(-x²)"),
	// d/dx erfc x = -2/√π exp(-x²)
	unary("Erfc", math.Erfc, "-2 / math.SqrtPi * math.Exp(-x*x)", -3, 5, "d/dx erfc x = -2/√π exp(-x²)"),
	// d/dx erfcinv x = -√π/2 exp(r²), r = erfcinv x
	unary("Erfcinv", math.Erfcinv, "-math.SqrtPi / 2 * math.Exp(r*r)", 0.05, 1.95, "d/dx erfcinv x = -√π/2 exp(erfcinv(x)²)"),
	// d/dx erfinv x = √π/2 exp(r²), r = erfinv x
	unary("Erfinv", math.Erfinv, "math.SqrtPi / 2 * math.Exp(r*r)", -0.95, 0.95, "d/dx erfinv x = √π/2 exp(erfinv(x)²)"),
	// d/dx eˣ = eˣ
	unary("Exp", math.Exp, "r", -10, 10, "d/dx eˣ = eˣ"),
	// d/dx 2ˣ = 2ˣ ln 2
	unary("Exp2", math.Exp2, "r * math.Ln2", -10, 10, "d/dx 2ˣ = 2ˣ ln 2"),
	// d/dx (eˣ-1) = eˣ = r+1
	unary("Expm1", math.Expm1, "r + 1", -5, 5, "d/dx (eˣ-1) = eˣ"),
	// fma(x, y, z) = x·y + z: ∂/∂x = y, ∂/∂y = x, ∂/∂z = 1
	{
		Pkg: "math", Name: "FMA", Func: math.FMA,
		Params: []string{"x", "y", "z"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"y", "x", "1"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}, {-3, 3}},
		Math:     "fma(x, y, z) = x·y + z: ∂/∂x = y, ∂/∂y = x, ∂/∂z = 1",
	},
	// Float32bits, Float32frombits, Float64bits, Float64frombits: bit
	// reinterpretations, no derivative
	bits("Float32bits", math.Float32bits, "f"),
	bits("Float32frombits", math.Float32frombits, "b"),
	bits("Float64bits", math.Float64bits, "f"),
	bits("Float64frombits", math.Float64frombits, "b"),
	// floor x is piecewise constant
	rounding("Floor", math.Floor, "d/dx ⌊x⌋ = 0 (undefined at integers)"),
	// f = frac · 2^exp with exp piecewise constant: ∂frac/∂f = 2^-exp
	{
		Pkg: "math", Name: "Frexp", Func: math.Frexp,
		Params: []string{"f"}, Results: []string{"frac", "exp"}, Kind: Smooth,
		Partials: [][]string{{"math.Ldexp(1, -exp)"}, {""}},
		Domain:   [][2]float64{{-100, 100}},
		Math:     "f = frac · 2^exp, exp piecewise constant: ∂frac/∂f = 2^-exp",
		Note:     "frac jumps at powers of two, where the derivative of the jump is ignored; exp is an int",
	},
	// d/dx Γ(x) = Γ(x) ψ(x)
	{
		Pkg: "math", Name: "Gamma", Func: math.Gamma,
		Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"r * gadDigamma(x)"}},
		Domain:   [][2]float64{{0.2, 6}},
		Math:     "d/dx Γ(x) = Γ(x) ψ(x), ψ the digamma function",
		Note:     "NaN at the poles 0, -1, -2, ...; ψ is the helper gadDigamma",
	},
	// ∂/∂p hypot(p, q) = p/r; ∂/∂q = q/r
	{
		Pkg: "math", Name: "Hypot", Func: math.Hypot,
		Params: []string{"p", "q"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(r == 0, 0, p / r)", "where(r == 0, 0, q / r)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "r = √(p²+q²): ∂r/∂p = p/r, ∂r/∂q = q/r",
		Note:     "both partials are 0 at p = q = 0 (a subgradient)",
	},
	// ilogb x is piecewise constant
	piecewise("Ilogb", math.Ilogb, []string{"x"}, []string{"r"}, [][2]float64{{-100, 100}},
		"ilogb x = ⌊log₂|x|⌋, an int"),
	// Inf(sign) has no float argument
	piecewise("Inf", math.Inf, []string{"sign"}, []string{"r"}, [][2]float64{{-1, 1}},
		"Inf(sign) is a constant (no float argument)"),
	// IsInf has a bool result
	piecewise("IsInf", math.IsInf, []string{"f", "sign"}, []string{"r"}, [][2]float64{{-10, 10}, {-1, 1}},
		"IsInf(f, sign) is a bool"),
	// IsNaN has a bool result
	piecewise("IsNaN", math.IsNaN, []string{"f"}, []string{"r"}, [][2]float64{{-10, 10}},
		"IsNaN(f) is a bool"),
	// d/dx J₀(x) = -J₁(x)
	unary("J0", math.J0, "-math.J1(x)", -15, 15, "d/dx J₀(x) = -J₁(x)"),
	// d/dx J₁(x) = J₀(x) - J₁(x)/x
	{
		Pkg: "math", Name: "J1", Func: math.J1,
		Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x == 0, 0.5, math.J0(x) - r/x)"}},
		Domain:   [][2]float64{{-15, 15}},
		Math:     "d/dx J₁(x) = J₀(x) - J₁(x)/x, = 1/2 at 0",
	},
	// d/dx Jₙ(x) = (Jₙ₋₁(x) - Jₙ₊₁(x))/2
	{
		Pkg: "math", Name: "Jn", Func: math.Jn,
		Params: []string{"n", "x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"", "(math.Jn(n-1, x) - math.Jn(n+1, x)) / 2"}},
		Domain:   [][2]float64{{-4, 6}, {-15, 15}},
		Math:     "d/dx Jₙ(x) = (Jₙ₋₁(x) - Jₙ₊₁(x))/2",
		Note:     "the order n is an int",
	},
	// ldexp(frac, exp) = frac · 2^exp: ∂/∂frac = 2^exp
	{
		Pkg: "math", Name: "Ldexp", Func: math.Ldexp,
		Params: []string{"frac", "exp"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"math.Ldexp(1, exp)", ""}},
		Domain:   [][2]float64{{-3, 3}, {-10, 10}},
		Math:     "ldexp(frac, exp) = frac · 2^exp: ∂/∂frac = 2^exp",
		Note:     "exp is an int",
	},
	// d/dx ln|Γ(x)| = ψ(x)
	{
		Pkg: "math", Name: "Lgamma", Func: math.Lgamma,
		Params: []string{"x"}, Results: []string{"lgamma", "sign"}, Kind: Smooth,
		Partials: [][]string{{"gadDigamma(x)"}, {""}},
		Domain:   [][2]float64{{0.1, 20}},
		Math:     "d/dx ln|Γ(x)| = ψ(x), ψ the digamma function",
		Note:     "NaN at the poles 0, -1, -2, ...; sign is an int; ψ is the helper gadDigamma",
	},
	// d/dx ln x = 1/x
	unary("Log", math.Log, "1 / x", 0.01, 100, "d/dx ln x = 1/x"),
	// d/dx log₁₀ x = 1/(x ln 10)
	unary("Log10", math.Log10, "1 / (x * math.Ln10)", 0.01, 100, "d/dx log₁₀ x = 1/(x ln 10)"),
	// d/dx ln(1+x) = 1/(1+x)
	unary("Log1p", math.Log1p, "1 / (1 + x)", -0.9, 10, "d/dx ln(1+x) = 1/(1+x)"),
	// d/dx log₂ x = 1/(x ln 2)
	unary("Log2", math.Log2, "1 / (x * math.Ln2)", 0.01, 100, "d/dx log₂ x = 1/(x ln 2)"),
	// logb x is piecewise constant
	piecewise("Logb", math.Logb, []string{"x"}, []string{"r"}, [][2]float64{{-100, 100}},
		"logb x = ⌊log₂|x|⌋: d/dx = 0 (undefined at powers of two)"),
	// ∂/∂x max(x, y) = [x ≥ y]; ∂/∂y = [x < y]
	{
		Pkg: "math", Name: "Max", Func: math.Max,
		Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x >= y, 1, 0)", "where(x >= y, 0, 1)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "∂/∂x max(x, y) = [x ≥ y], ∂/∂y max(x, y) = [x < y]",
		Note:     "at ties the derivative flows to the first argument, x",
	},
	// ∂/∂x min(x, y) = [x ≤ y]; ∂/∂y = [x > y]
	{
		Pkg: "math", Name: "Min", Func: math.Min,
		Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x <= y, 1, 0)", "where(x <= y, 0, 1)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "∂/∂x min(x, y) = [x ≤ y], ∂/∂y min(x, y) = [x > y]",
		Note:     "at ties the derivative flows to the first argument, x",
	},
	// mod(x, y) = x - y·trunc(x/y): ∂/∂x = 1, ∂/∂y = -trunc(x/y)
	{
		Pkg: "math", Name: "Mod", Func: math.Mod,
		Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1", "-math.Trunc(x / y)"}},
		Domain:   [][2]float64{{-10, 10}, {0.5, 3}},
		Math:     "mod(x, y) = x - y·trunc(x/y): ∂/∂x = 1, ∂/∂y = -trunc(x/y)",
		Note:     "mod jumps where x/y is a nonzero integer; the jumps are ignored (∂/∂y takes trunc(x/y) as computed there)",
	},
	// f = integer + fractional, integer = trunc f: ∂integer/∂f = 0, ∂fractional/∂f = 1
	{
		Pkg: "math", Name: "Modf", Func: math.Modf,
		Params: []string{"f"}, Results: []string{"integer", "fractional"}, Kind: Smooth,
		Partials: [][]string{{""}, {"1"}},
		Domain:   [][2]float64{{-10, 10}},
		Math:     "integer = trunc f, fractional = f - trunc f: ∂integer/∂f = 0, ∂fractional/∂f = 1",
		Note:     "integer is piecewise constant; the jumps of both at integers are ignored",
	},
	// NaN() is a constant
	piecewise("NaN", math.NaN, nil, []string{"r"}, nil, "NaN() is a constant"),
	// Nextafter, Nextafter32: the adjacent float, no derivative
	{
		Pkg: "math", Name: "Nextafter", Func: math.Nextafter,
		Params: []string{"x", "y"}, Results: []string{"r"},
		Kind:   NotDifferentiable,
		Math:   "Nextafter(x, y) is the float64 next to x towards y",
		Reason: "stepping to the adjacent float is a bit operation with no useful derivative",
	},
	{
		Pkg: "math", Name: "Nextafter32", Func: math.Nextafter32,
		Params: []string{"x", "y"}, Results: []string{"r"},
		Kind:   NotDifferentiable,
		Math:   "Nextafter32(x, y) is the float32 next to x towards y",
		Reason: "stepping to the adjacent float is a bit operation with no useful derivative",
	},
	// ∂/∂x xʸ = y xʸ⁻¹; ∂/∂y xʸ = xʸ ln x
	{
		Pkg: "math", Name: "Pow", Func: math.Pow,
		Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(y == 0, 0, y * math.Pow(x, y-1))", "where(x == 0 && y >= 0, 0, r * math.Log(x))"}},
		Domain:   [][2]float64{{0.1, 5}, {-3, 3}},
		Math:     "∂/∂x xʸ = y xʸ⁻¹, ∂/∂y xʸ = xʸ ln x",
		Note: "as PyTorch: ∂/∂x = 0 where y = 0 (also at x = 0); ∂/∂y = 0 where x = 0 and y ≥ 0. " +
			"For x < 0 (defined only for integer y) ∂/∂x is exact and ∂/∂y is NaN",
	},
	// Pow10(n) has no float argument
	piecewise("Pow10", math.Pow10, []string{"n"}, []string{"r"}, [][2]float64{{-10, 10}},
		"Pow10(n) = 10ⁿ for an int n: a constant"),
	// remainder(x, y) = x - y·roundToEven(x/y): ∂/∂x = 1, ∂/∂y = -roundToEven(x/y)
	{
		Pkg: "math", Name: "Remainder", Func: math.Remainder,
		Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1", "-math.RoundToEven(x / y)"}},
		Domain:   [][2]float64{{-10, 10}, {0.5, 3}},
		Math:     "remainder(x, y) = x - y·n, n = x/y rounded to even: ∂/∂x = 1, ∂/∂y = -n",
		Note:     "the jumps (x/y a half-integer) are ignored",
	},
	// round x is piecewise constant
	rounding("Round", math.Round, "d/dx round x = 0 (undefined at half-integers)"),
	// roundToEven x is piecewise constant
	rounding("RoundToEven", math.RoundToEven, "d/dx roundToEven x = 0 (undefined at half-integers)"),
	// Signbit has a bool result
	piecewise("Signbit", math.Signbit, []string{"x"}, []string{"r"}, [][2]float64{{-10, 10}},
		"Signbit(x) is a bool"),
	// d/dx sin x = cos x
	unary("Sin", math.Sin, "math.Cos(x)", -10, 10, "d/dx sin x = cos x"),
	// d/dx (sin x, cos x) = (cos x, -sin x)
	{
		Pkg: "math", Name: "Sincos", Func: math.Sincos,
		Params: []string{"x"}, Results: []string{"s", "c"}, Kind: Smooth,
		Partials: [][]string{{"c"}, {"-s"}},
		Domain:   [][2]float64{{-10, 10}},
		Math:     "d/dx sin x = cos x, d/dx cos x = -sin x",
	},
	// d/dx sinh x = cosh x
	unary("Sinh", math.Sinh, "math.Cosh(x)", -5, 5, "d/dx sinh x = cosh x"),
	// d/dx √x = 1/(2√x)
	{
		Pkg: "math", Name: "Sqrt", Func: math.Sqrt,
		Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"0.5 / r"}},
		Domain:   [][2]float64{{0.01, 100}},
		Math:     "d/dx √x = 1/(2√x)",
		Note:     "+Inf at 0",
	},
	// d/dx tan x = 1 + tan² x
	unary("Tan", math.Tan, "1 + r*r", -1.4, 1.4, "d/dx tan x = 1 + tan² x"),
	// d/dx tanh x = 1 - tanh² x
	unary("Tanh", math.Tanh, "1 - r*r", -5, 5, "d/dx tanh x = 1 - tanh² x"),
	// trunc x is piecewise constant
	rounding("Trunc", math.Trunc, "d/dx trunc x = 0 (undefined at integers)"),
	// d/dx Y₀(x) = -Y₁(x)
	unary("Y0", math.Y0, "-math.Y1(x)", 0.5, 15, "d/dx Y₀(x) = -Y₁(x)"),
	// d/dx Y₁(x) = Y₀(x) - Y₁(x)/x
	unary("Y1", math.Y1, "math.Y0(x) - r/x", 0.5, 15, "d/dx Y₁(x) = Y₀(x) - Y₁(x)/x"),
	// d/dx Yₙ(x) = (Yₙ₋₁(x) - Yₙ₊₁(x))/2
	{
		Pkg: "math", Name: "Yn", Func: math.Yn,
		Params: []string{"n", "x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"", "(math.Yn(n-1, x) - math.Yn(n+1, x)) / 2"}},
		Domain:   [][2]float64{{-4, 6}, {0.5, 15}},
		Math:     "d/dx Yₙ(x) = (Yₙ₋₁(x) - Yₙ₊₁(x))/2",
		Note:     "the order n is an int",
	},
}
