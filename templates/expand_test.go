package templates

import (
	"go/ast"
	"slices"
	"testing"
)

// TestExpand checks the rules that give their series by an expression
// (Rule.Expand), the primitives' and the in-place accumulations': each is
// a rule of linear maps whose Series does not give the higher orders
// (FirstOrder), its expression parses and names only the rule's
// parameters, its result and the functions of the runtime, and it does
// not call the function itself.
func TestExpand(t *testing.T) {
	n := 0
	for _, r := range slices.Concat(All(), inPlaceRules) {
		if r.Expand == "" {
			continue
		}
		n++
		if r.Tangent == nil || r.Series != FirstOrder {
			t.Errorf("%s: Expand on a rule with Series %v and %d tangent maps, want FirstOrder maps", r.Name, r.Series, len(r.Tangent))
		}
		e, err := Parse(r.Expand)
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		names := append(slices.Clone(r.Params), r.Results...)
		for _, id := range identifiers(e) {
			if !slices.Contains(names, id) && id != "true" && id != "false" {
				t.Errorf("%s: Expand names %s, which is not a parameter or result of the rule", r.Name, id)
			}
		}
		for _, fn := range calledTensorFuncs(e) {
			if fn == r.Name {
				t.Errorf("%s: Expand calls %s itself", r.Name, fn)
			}
		}
	}
	if n == 0 {
		t.Fatal("no rule has an Expand")
	}
}

// identifiers returns the names e refers to as values: not the package
// names of selectors nor the functions it calls.
func identifiers(e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false // math.F, tensorops.F
		case *ast.CallExpr:
			// Not the function (where, a helper), its arguments.
			for _, a := range n.Args {
				out = append(out, identifiers(a)...)
			}
			return false
		case *ast.Ident:
			out = append(out, n.Name)
		}
		return true
	})
	return out
}

// calledTensorFuncs returns the names of the functions of package
// tensorops that e calls.
func calledTensorFuncs(e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && isTensorops(s) {
				out = append(out, s.Sel.Name)
			}
		}
		return true
	})
	return out
}
