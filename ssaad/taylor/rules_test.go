package taylor

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// TestEveryMathRuleExpands expands every Smooth rule of package math to
// order 4 along varied arguments: a new rule that Taylor mode cannot
// expand fails here.
func TestEveryMathRuleExpands(t *testing.T) {
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
	if err != nil {
		t.Fatalf("cannot load package math: %v", err)
	}
	const K = 4
	for _, r := range templates.All() {
		if r.Pkg != "math" || r.Kind != templates.Smooth {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			fn, ok := pkg.Scope().Lookup(r.Name).(*types.Func)
			if !ok {
				t.Fatalf("math.%s not found", r.Name)
			}
			f := ir.NewFunc("f", nil)
			tr := &ssaad.Builder{F: f}
			tr.Cur = f.NewBlock("entry")
			e := ssaad.NewExpander(tr, K, pkg)
			sig := fn.Type().(*types.Signature)
			var args []*ssaad.Series
			for i := 0; i < sig.Params().Len(); i++ {
				pt := sig.Params().At(i).Type()
				cs := []*ir.Value{f.AddParam(sig.Params().At(i).Name(), pt)}
				for k := 1; k <= K; k++ {
					if isFloat(pt) {
						cs = append(cs, f.AddParam("", pt))
					} else {
						cs = append(cs, tr.Zero(pt))
					}
				}
				args = append(args, e.Known(cs))
			}
			n := e.RuleCall(&ir.Callee{Func: fn}, r, args, nil)
			for _, res := range n.Results {
				for k := 0; k <= K; k++ {
					if _, err := res.At(k); err != nil {
						t.Fatalf("math.%s does not expand to order %d: %v", r.Name, K, err)
					}
				}
			}
		})
	}
}
