// This file defines the rules of the builtins min and max on floats.

package templates

// builtinRules holds the rules of Go's builtin functions (Pkg ""). The
// builtins min and max are variadic; a transformer folds a call with more
// than two arguments from the left, min(a, b, c) = min(min(a, b), c), which
// keeps the convention that ties favour the first argument.
var builtinRules = []*Rule{
	// ∂/∂x max(x, y) = [x ≥ y]; ∂/∂y = [x < y]
	{
		Name: "max", Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x >= y, 1, 0)", "where(x >= y, 0, 1)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "∂/∂x max(x, y) = [x ≥ y], ∂/∂y max(x, y) = [x < y]",
		Note:     "at ties the derivative flows to the first argument, x; more than two arguments fold from the left",
	},
	// ∂/∂x min(x, y) = [x ≤ y]; ∂/∂y = [x > y]
	{
		Name: "min", Params: []string{"x", "y"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"where(x <= y, 1, 0)", "where(x <= y, 0, 1)"}},
		Domain:   [][2]float64{{-3, 3}, {-3, 3}},
		Math:     "∂/∂x min(x, y) = [x ≤ y], ∂/∂y min(x, y) = [x > y]",
		Note:     "at ties the derivative flows to the first argument, x; more than two arguments fold from the left",
	},
}
