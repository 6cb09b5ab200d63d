package templates

// This file defines the tests that each rule's Func is the function the
// rule names, with the signature go/types gives that function.

import (
	"go/types"
	"reflect"
	"runtime"
	"testing"
)

// helpersPath is the import path of this package, which declares the
// helpers.
const helpersPath = "github.com/gadgen/gadgen/templates"

// TestRuleFuncs checks every rule's Func: nil exactly for the builtins,
// else the function Pkg.Name itself (by its symbol name), with the
// parameter and result types of its signature.
func TestRuleFuncs(t *testing.T) {
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		t.Run(r.Pkg+"."+r.Name, func(t *testing.T) {
			if isBuiltin(r) {
				if r.Func != nil {
					t.Errorf("builtin %s has a Func", r.Name)
				}
				return
			}
			if r.Func == nil {
				t.Fatalf("%s.%s has no Func", r.Pkg, r.Name)
			}
			fv := reflect.ValueOf(r.Func)
			if fv.Kind() != reflect.Func {
				t.Fatalf("%s.%s: Func is a %s, not a function", r.Pkg, r.Name, fv.Kind())
			}
			path := r.Pkg
			if path == "" {
				path = helpersPath
			}
			if got, want := runtime.FuncForPC(fv.Pointer()).Name(), path+"."+r.Name; got != want {
				t.Errorf("Func is %s, want %s", got, want)
			}
			sig, ft := signature(t, r), fv.Type()
			if ft.NumIn() != sig.Params().Len() || ft.NumOut() != sig.Results().Len() {
				t.Fatalf("Func has type %s, the function %s", ft, sig)
			}
			for i := range ft.NumIn() {
				if rt := reflectType(sig.Params().At(i).Type()); rt != ft.In(i) {
					t.Errorf("parameter %d is %s in Func, %s in the function", i, ft.In(i), rt)
				}
			}
			for i := range ft.NumOut() {
				if rt := reflectType(sig.Results().At(i).Type()); rt != ft.Out(i) {
					t.Errorf("result %d is %s in Func, %s in the function", i, ft.Out(i), rt)
				}
			}
		})
	}
}

// isBuiltin reports whether r is the rule of a builtin (min, max).
func isBuiltin(r *Rule) bool { return r.Pkg == "" && (r.Name == "min" || r.Name == "max") }

// reflectType returns the Go type of a basic type of the functions'
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
