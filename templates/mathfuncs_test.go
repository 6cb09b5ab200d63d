package templates

// This file defines the test that the table of package math is complete
// and that each entry has the signature go/types gives the function.

import (
	"go/importer"
	"go/token"
	"go/types"
	"reflect"
	"testing"
)

func TestMathTable(t *testing.T) {
	p, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range p.Scope().Names() {
		fn, ok := p.Scope().Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		seen[name] = true
		f, ok := MathFuncs[name]
		if !ok {
			t.Errorf("math.%s is missing from MathFuncs", name)
			continue
		}
		sig, ft := fn.Signature(), reflect.TypeOf(f)
		if ft.NumIn() != sig.Params().Len() || ft.NumOut() != sig.Results().Len() {
			t.Errorf("math.%s: table entry has type %s, math has %s", name, ft, sig)
			continue
		}
		for i := range ft.NumIn() {
			if rt := reflectType(sig.Params().At(i).Type()); rt != ft.In(i) {
				t.Errorf("math.%s: parameter %d is %s in the table, %s in math", name, i, ft.In(i), rt)
			}
		}
		for i := range ft.NumOut() {
			if rt := reflectType(sig.Results().At(i).Type()); rt != ft.Out(i) {
				t.Errorf("math.%s: result %d is %s in the table, %s in math", name, i, ft.Out(i), rt)
			}
		}
	}
	for name := range MathFuncs {
		if !seen[name] {
			t.Errorf("MathFuncs has %s, which is not a function of math", name)
		}
	}
}

// reflectType returns the Go type of a basic type of package math's
// signatures.
func reflectType(t types.Type) reflect.Type {
	switch t.Underlying().(*types.Basic).Kind() {
	case types.Float64:
		return reflect.TypeFor[float64]()
	case types.Float32:
		return reflect.TypeFor[float32]()
	case types.Int:
		return reflect.TypeFor[int]()
	case types.Uint32:
		return reflect.TypeFor[uint32]()
	case types.Uint64:
		return reflect.TypeFor[uint64]()
	case types.Bool:
		return reflect.TypeFor[bool]()
	}
	return nil
}
