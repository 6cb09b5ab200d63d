// Package templates holds gadgen's first-order derivative rules, as data:
// one [Rule] per primitive — every function of Go's package math, some of
// other packages (gonum's mathext.Beta, mathext.Lbeta, mathext.Digamma),
// the builtins min and max, and the helpers that partials call — found by
// package path and name with [Lookup] and [LookupFunc]. A rule carries the
// function itself ([Rule.Func]), which the rules' evaluator ([Eval]), the
// IR interpreter and the constant folder call: a primitive is one table
// entry, and no mode has code of its own for it.
//
// A rule gives partial derivatives only, ∂result/∂param, as small Go
// expressions, so that every mode can use the same table. One walker,
// ssaad.Expander, turns them into IR as truncated power series of the
// order a mode asks for: order 0 evaluates a partial (reverse mode
// multiplies it by adjoints), order 1 gives tangents (forward mode),
// order K Taylor coefficients by the recurrence of the differential
// equation c′ = Σ ∂f/∂aⱼ·aⱼ′. Tests evaluate the expressions with [Eval].
//
// Non-goals: higher derivatives and Taylor recurrences (ssaad.Expander
// derives them from the partials: a rule has no series rule of its own;
// a tensor rule given by fused first-order maps gives instead the
// function as an expression of other primitives, Rule.Expand, which the
// expander expands the same way),
// float32 arithmetic (the float32 functions of math are bit operations,
// marked NotDifferentiable), and the builtins on non-floats.
//
// The functions of the table are gadgen's primitives: every mode
// differentiates their calls by the rule, never through their bodies
// (ssaad.CallRule), the inliner leaves them, and the optimizer treats them
// as pure functions that never panic, whatever their arguments: it folds
// calls on constants, merges equal calls, hoists them out of loops and
// evaluates them speculatively. A function that may panic or has effects
// cannot be a primitive.
//
// Users write rules of the same form for their own functions with the
// directive //gad:rule (package driver builds the [Rule]; calls carry it
// in ir.Callee.Rule): every mode then treats a call of the function as
// one of a primitive (but not the optimizer: the function may have
// effects). For a function of tensors, the rule names the user's Go
// functions instead, //gad:rule jvp=fTangent vjp=fAdjoint: its Tangent
// is one joint map (Rule.Joint) calling jvp(…) with all the tangents, its
// Adjoint entries call vjp(…) (result k for parameter k), and Rule.JVP
// and Rule.VJP are the functions these pseudo-functions call (see
// [JVPCall]). Taylor mode expands such a rule beyond order 1 by
// differentiating the user's JVP function (ssaad.Expander.SetDerive).
//
// Besides the rules, the package holds what the optimizer may assume of
// the functions of the tensor runtime (package tensorops), one [TensorOp]
// each, found by name with [TensorOpOf] (tensorfacts.go): in which
// operands a function is elementwise, whether its result is a fresh
// buffer or shares an argument's, which arguments it reads only the shape
// of, the result's shape, its fused forms. Package simplify's rewrites
// use these facts; a test checks each against the function's signature.
//
// # Rules
//
// A [Rule] names its function (Pkg, its package's import path, or "" for
// builtins and helpers; Name), holds it (Func; nil for builtins), names its
// parameters and results as the expressions refer to them, a [Kind], the
// partials, the interval in which tests draw each parameter, the
// mathematics, and its conventions:
//
//   - Smooth: Partials[i][j] is ∂Results[i]/∂Params[j], or "" when it is
//     identically zero or either side is not a float (Frexp's exp, Jn's
//     order n, Lgamma's sign).
//   - PiecewiseConstant: the derivative is zero wherever it exists: the
//     rounding functions (Ceil, Floor, Trunc, Round, RoundToEven), Logb and
//     Ilogb, the predicates (Signbit, IsNaN, IsInf), and the constants
//     without float arguments (Inf, NaN, Pow10). Results are inactive.
//   - NotDifferentiable: Float32bits, Float32frombits, Float64bits,
//     Float64frombits, Nextafter and Nextafter32. Calling one on an active
//     value is an error, reported with the rule's Reason.
//
// Params carry the function's own parameter names ({"y", "x"} for
// math.Atan2, {"f", "sign"} for math.Copysign, {"a", "b"} for
// mathext.Lbeta). A single result is "r"; several results carry math's
// names ({"frac", "exp"} for Frexp, {"integer", "fractional"} for
// Modf, {"lgamma", "sign"} for Lgamma) except Sincos's, {"s", "c"}.
//
// # Expressions
//
// A partial is a Go expression over the rule's Params and Results:
// literals, + - * /, unary -, parentheses, the float constants of package
// math (math.Pi, math.Ln2, math.SqrtPi, ...), calls math.F(...) of the
// functions of math that return one float64 from float64 and int
// arguments, calls of the helpers in [Helpers], and the pseudo-function
// where(cond, a, b) (see [Where]): a if cond, else b. Conditions are
// comparisons == != < <= > >= of numeric expressions joined by && and ||,
// and appear only as the first argument of where. [Parse] enforces this.
// Every expression type-checks as a float64 (or an untyped constant) in Go
// with the parameters and results at their real types (a test checks it),
// so a transformer may also print it as Go source.
//
// Partials are written in terms of the result where that is cheaper, so
// generated code reuses the primal: Exp's is "r", Sqrt's "0.5 / r", Tanh's
// "1 - r*r".
//
// Things a transformer must handle:
//
//   - where may be lowered to if/else or to a branch-free select. Eval
//     evaluates only the chosen operand, but both operands are always safe
//     to evaluate (they are float arithmetic and math calls, which never
//     panic; the unchosen one may be NaN or ±Inf).
//   - Int parameters and results appear as values, but only in int
//     argument positions of math calls: "math.Ldexp(1, exp)" (Ldexp),
//     "math.Ldexp(1, -exp)" (Frexp), "math.Jn(n-1, x)" (Jn, Yn). These
//     subexpressions are int-typed: n-1 is int arithmetic.
//   - A call of a helper such as "gadDigamma(x)" (Gamma, Lgamma) needs the
//     helper's source, Helpers["gadDigamma"], pasted once into the generated
//     file, which must import "math". Helpers are self-contained, std-only
//     Go; the same functions, in helpers.go, serve Eval, so there is one
//     copy. Each helper has a rule of its own (in helpers.go: ψ′ =
//     gadPolygamma(1, x), ∂/∂x gadPolygamma(n, x) = gadPolygamma(n+1, x)),
//     so that the partials that call it expand to any order; a helper's
//     partials call helpers only.
//   - The builtins min and max are variadic: fold calls with more than two
//     arguments from the left, min(a, b, c) = min(min(a, b), c).
//
// # Conventions
//
// Where a function has a kink, a tie, a pole or a jump, the rule picks one
// value and says so in its Note:
//
//   - Abs'(0) = 0: the derivative is the sign function, as in PyTorch.
//   - Max, Min and the builtins max and min: at ties (x == y, including
//     -0 == +0) the derivative flows to the first argument:
//     ∂max/∂x = where(x >= y, 1, 0).
//   - Dim(x, y) = max(x-y, 0): both partials are 0 at x == y, like ReLU'(0).
//   - Copysign(f, sign): ∂/∂f = sgn f · sgn sign by sign bits (-0 is
//     negative), 0 at f == 0 as for Abs; ∂/∂sign = 0.
//   - Hypot: both partials are 0 at the origin (a subgradient).
//   - Mod(x, y) = x - y·trunc(x/y): ∂/∂x = 1, ∂/∂y = -trunc(x/y); Remainder
//     likewise with x/y rounded to even; Modf's fractional part has
//     derivative 1 and its integer part 0; Frexp's frac has 2^-exp. Their
//     jumps are ignored.
//   - Pow(x, y), as PyTorch: ∂/∂x = y·x^(y-1), taken as 0 where y == 0
//     (also at x == 0); ∂/∂y = x^y·ln x, taken as 0 where x == 0 and
//     y ≥ 0. For x < 0 (where Pow is defined only for integer y) ∂/∂x is
//     exact and ∂/∂y is NaN.
//   - J1'(0) = 1/2 (J1' = J0 - J1/x elsewhere).
//   - At poles and ends of domains the partials give what the formula
//     gives: Sqrt'(0) = Cbrt'(0) = +Inf, Log'(0) = +Inf, NaN at the poles
//     of Gamma and Lgamma and at the origin for Atan2.
//
// # Adding a primitive
//
// A primitive is one entry in the table of its package: math.go for
// package math, mathext.go for gonum's mathext, builtin.go for the
// builtins; a new package gets a file of its own, added to the tables
// that rule.go sorts into All. The entry of mathext.Lbeta, whose partials
// call the digamma helper:
//
//	// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a+b): ∂/∂a = ψ(a) − ψ(a+b), ∂/∂b = ψ(b) − ψ(a+b)
//	{
//		Pkg: mathextPkg, Name: "Lbeta", Func: mathext.Lbeta,
//		Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
//		Partials: [][]string{{"gadDigamma(a) - gadDigamma(a+b)", "gadDigamma(b) - gadDigamma(a+b)"}},
//		Domain:   [][2]float64{{0.2, 10}, {0.2, 10}},
//		Math:     "ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a+b): ∂/∂a = ψ(a) − ψ(a+b), ∂/∂b = ψ(b) − ψ(a+b)",
//		Note:     "defined for a, b ≥ 0 (NaN below, as mathext.Lbeta); ψ is the helper gadDigamma",
//	},
//
// That is all: no mode, pass or table elsewhere names the function, and
// there is no series rule to write (ssaad.Expander derives Taylor
// coefficients of any order from the partials). From the entry, calls of
// mathext.Lbeta in users' code are differentiated by the rule in forward,
// reverse and Taylor mode and in the second-order helpers, generated code
// calls it through the user's import, and the optimizer folds it on
// constants, as package math's functions.
//
// The entry keeps the table's order (alphabetical by name), carries the
// function in Func, its mathematics in a comment above it and in Math,
// its conventions in Note, and a Domain where the derivative exists and
// central differences are well conditioned (a tolerance in fdTol in
// fd_test.go if it is badly conditioned). The function must be pure and
// never panic (see above): mathext.Zeta, which panics for x < 1, cannot be
// one. The tests then check that Func is the function named and that the
// rule matches its signature (loaded from source), that each partial
// parses and type-checks, that it agrees with central finite differences
// (gonum's diff/fd) at 20 seeded random points of the Domain, and, in
// package ssaad, that every mode's derivative of a call of it (JVP,
// gradient, Taylor coefficients to order 3) agrees with finite differences
// at points of the Domain.
//
// A partial that needs a function package math lacks gets a helper: a
// self-contained gad* function in helpers.go, with its rule in
// helperRules (so that it expands to any order) and tests against known
// values. A partial that names the function's result (r) lets generated
// code reuse the primal: Beta's is "r * (gadDigamma(a) - gadDigamma(a+b))".
package templates
