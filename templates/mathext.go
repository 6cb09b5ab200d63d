// This file defines the rules of gonum's package mathext: its functions
// of floats that have closed-form derivatives gadgen can write, in
// alphabetical order, each with its mathematics in a comment. Functions of
// mathext without a rule are differentiated through their Go source like
// any other package's.

package templates

import "gonum.org/v1/gonum/mathext"

// mathextPkg is the import path of gonum's package mathext.
const mathextPkg = "gonum.org/v1/gonum/mathext"

var mathextRules = []*Rule{
	// B(a, b) = Γ(a)Γ(b)/Γ(a+b): ∂B/∂a = B·(ψ(a) − ψ(a+b)), ∂B/∂b = B·(ψ(b) − ψ(a+b))
	{
		Pkg: mathextPkg, Name: "Beta", Func: mathext.Beta,
		Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"r * (gadDigamma(a) - gadDigamma(a+b))", "r * (gadDigamma(b) - gadDigamma(a+b))"}},
		Domain:   [][2]float64{{0.3, 5}, {0.3, 5}},
		Math:     "B(a, b) = Γ(a)Γ(b)/Γ(a+b): ∂B/∂a = B·(ψ(a) − ψ(a+b)), ∂B/∂b = B·(ψ(b) − ψ(a+b))",
		Note:     "defined for a, b ≥ 0 (NaN below, as mathext.Beta); ψ is the helper gadDigamma",
	},
	// ψ(x) = d/dx ln Γ(x): ψ′(x) = ψ⁽¹⁾(x), the trigamma function
	{
		Pkg: mathextPkg, Name: "Digamma", Func: mathext.Digamma,
		Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"gadPolygamma(1, x)"}},
		Domain:   [][2]float64{{0.2, 10}},
		Math:     "d/dx ψ(x) = ψ⁽¹⁾(x), the trigamma function",
		Note:     "NaN at the poles 0, -1, -2, ...; ψ⁽¹⁾ is the helper gadPolygamma",
	},
	// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a+b): ∂/∂a = ψ(a) − ψ(a+b), ∂/∂b = ψ(b) − ψ(a+b)
	{
		Pkg: mathextPkg, Name: "Lbeta", Func: mathext.Lbeta,
		Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"gadDigamma(a) - gadDigamma(a+b)", "gadDigamma(b) - gadDigamma(a+b)"}},
		Domain:   [][2]float64{{0.2, 10}, {0.2, 10}},
		Math:     "ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a+b): ∂/∂a = ψ(a) − ψ(a+b), ∂/∂b = ψ(b) − ψ(a+b)",
		Note:     "defined for a, b ≥ 0 (NaN below, as mathext.Lbeta); ψ is the helper gadDigamma",
	},
}
