package simplify

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/templates"
)

// TestRuntimeNames checks every tensorops function that simplify's tables
// name: it exists in package tensorops (loaded from source: the compiler
// does not import the runtime), is a function, and the argument indices a
// table gives are among its parameters. A renamed or removed runtime
// function fails here instead of silently disabling a rewrite.
func TestRuntimeNames(t *testing.T) {
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("github.com/gadgen/gadgen/tensorops")
	if err != nil {
		t.Fatalf("loading tensorops: %v", err)
	}
	check := func(table, name string, indices ...int) {
		t.Helper()
		obj := pkg.Scope().Lookup(name)
		fn, ok := obj.(*types.Func)
		if !ok {
			t.Errorf("%s names %s, which is not a function of tensorops", table, name)
			return
		}
		sig := fn.Type().(*types.Signature)
		for _, i := range indices {
			if i < 0 || i >= sig.Params().Len() && !sig.Variadic() {
				t.Errorf("%s gives argument %d of tensorops.%s, which has %d parameters", table, i, name, sig.Params().Len())
			}
		}
	}
	for name := range fusable {
		check("fusable", name)
	}
	for name := range readOnlyCalls {
		check("readOnlyCalls", name)
	}
	for name := range freshResults {
		check("freshResults", name)
	}
	for name, idx := range passThrough {
		check("passThrough", name, idx...)
	}
	for name, idx := range shapeOnly {
		check("shapeOnly", name, idx...)
	}
	for name, idx := range resultAliases {
		check("resultAliases", name, idx...)
	}
	check("ReleaseTemporaries", templates.ReleaseFunc)
	for name := range broadcastBinary {
		check("broadcastBinary", name, 0, 1)
	}
	for name, i := range shapeKeepers {
		check("shapeKeepers", name, i)
	}
	for name := range notCongruent {
		check("notCongruent", name)
	}
	for name, i := range congruentByIdentity {
		check("congruentByIdentity", name, i)
	}
	for name, i := range elementwiseIn {
		check("elementwiseIn", name, i)
	}
	for name := range binaryElementwise {
		check("binaryElementwise", name, 0, 1)
	}
	for name := range fillFolds {
		check("fillFolds", name)
	}
	for name, fused := range accumulateInto {
		check("accumulateInto", name)
		check("accumulateInto", fused)
	}
}
