package templates

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"
	"testing"
)

// imports caches the packages the tests load from source, by path.
var imports sync.Map // path → func() (*types.Package, error)

// importPkg returns the package with import path path as go/types sees
// it, from source.
func importPkg(path string) (*types.Package, error) {
	f, _ := imports.LoadOrStore(path, sync.OnceValues(func() (*types.Package, error) {
		return importer.ForCompiler(token.NewFileSet(), "source", nil).Import(path)
	}))
	return f.(func() (*types.Package, error))()
}

// mathPackage returns package math as go/types sees it, from source.
func mathPackage() (*types.Package, error) { return importPkg("math") }

func loadMath(t *testing.T) *types.Package {
	t.Helper()
	pkg, err := mathPackage()
	if err != nil {
		t.Fatalf("import math: %v", err)
	}
	return pkg
}

// signature returns the Go signature of the function of r: its package's,
// the helper's in helpers.go, or func(x, y float64) float64 for the
// builtins min and max on floats.
func signature(t *testing.T, r *Rule) *types.Signature {
	t.Helper()
	switch {
	case isBuiltin(r):
		f64 := types.Typ[types.Float64]
		v := func(name string) *types.Var { return types.NewParam(token.NoPos, nil, name, f64) }
		return types.NewSignatureType(nil, nil, nil,
			types.NewTuple(v("x"), v("y")), types.NewTuple(v("")), false)
	case r.Pkg == "":
		pkg, err := checkHelper(r.Name)
		if err != nil {
			t.Fatalf("helper %s: %v", r.Name, err)
		}
		return pkg.Scope().Lookup(r.Name).(*types.Func).Signature()
	}
	pkg, err := importPkg(r.Pkg)
	if err != nil {
		t.Fatalf("import %s: %v", r.Pkg, err)
	}
	f, ok := pkg.Scope().Lookup(r.Name).(*types.Func)
	if !ok {
		t.Fatalf("%s: no function %s in %s", r.Name, r.Name, r.Pkg)
	}
	return f.Signature()
}

// isFloat reports whether t is float64 or float32.
func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func isFloat64(t types.Type) bool { return types.Identical(t, types.Typ[types.Float64]) }

// TestComplete checks that every exported function of package math has a
// rule, that every math rule names one, and that the builtins have rules.
func TestComplete(t *testing.T) {
	scope := loadMath(t).Scope()
	for _, name := range scope.Names() {
		if _, ok := scope.Lookup(name).(*types.Func); !ok || !token.IsExported(name) {
			continue
		}
		if _, ok := Lookup("math", name); !ok {
			t.Errorf("math.%s has no rule: add a Smooth, PiecewiseConstant or NotDifferentiable rule to math.go", name)
		}
	}
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		if r.Pkg == "math" {
			if _, ok := scope.Lookup(r.Name).(*types.Func); !ok {
				t.Errorf("rule for math.%s: package math has no such function", r.Name)
			}
		}
	}
	for _, name := range []string{"min", "max"} {
		if _, ok := Lookup("", name); !ok {
			t.Errorf("builtin %s has no rule", name)
		}
	}
}

func TestAllSortedAndLookup(t *testing.T) {
	rules := All()
	if !slices.IsSortedFunc(rules, func(a, b *Rule) int {
		return strings.Compare(a.Pkg+"\x00"+a.Name, b.Pkg+"\x00"+b.Name)
	}) {
		t.Errorf("All is not sorted by Pkg then Name")
	}
	for _, r := range rules {
		if got, ok := Lookup(r.Pkg, r.Name); !ok || got != r {
			t.Errorf("Lookup(%q, %q) = %v, %v; want the rule from All", r.Pkg, r.Name, got, ok)
		}
	}
	if r, ok := Lookup("math", "NoSuchFunc"); ok || r != nil {
		t.Errorf("Lookup of a missing function = %v, %v; want nil, false", r, ok)
	}
	if r, ok := Lookup("", "Sin"); ok || r != nil {
		t.Errorf(`Lookup("", "Sin") = %v, %v; want nil, false`, r, ok)
	}
}

// TestRuleShape checks each rule against the real signature of its
// function: names and arity of Params and Results, the shape of Partials
// and Domain, which partials may be non-empty, and the documentation fields.
func TestRuleShape(t *testing.T) {
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		t.Run(r.Pkg+"."+r.Name, func(t *testing.T) {
			sig := signature(t, r)
			if len(r.Params) != sig.Params().Len() {
				t.Fatalf("%s: %d Params, signature has %d", r.Name, len(r.Params), sig.Params().Len())
			}
			if len(r.Results) != sig.Results().Len() {
				t.Fatalf("%s: %d Results, signature has %d", r.Name, len(r.Results), sig.Results().Len())
			}
			for j, p := range r.Params {
				if want := sig.Params().At(j).Name(); p != want {
					t.Errorf("%s: Params[%d] = %q, want the function's name %q", r.Name, j, p, want)
				}
			}
			if len(r.Results) == 1 && r.Results[0] != "r" {
				t.Errorf(`%s: a single result is named %q, want "r"`, r.Name, r.Results[0])
			}
			names := slices.Concat(r.Params, r.Results)
			for k, n := range names {
				if !token.IsIdentifier(n) || n == Where || n == "math" || slices.Index(names, n) != k {
					t.Errorf("%s: name %q is not a fresh identifier", r.Name, n)
				}
			}
			if r.Math == "" {
				t.Errorf("%s: Math is empty", r.Name)
			}
			if (r.Reason != "") != (r.Kind == NotDifferentiable) {
				t.Errorf("%s: Reason %q with Kind %v: want a Reason exactly for NotDifferentiable", r.Name, r.Reason, r.Kind)
			}
			wantDomain := len(r.Params)
			if r.Kind == NotDifferentiable {
				wantDomain = 0
			}
			if len(r.Domain) != wantDomain {
				t.Errorf("%s: %d Domain intervals, want %d", r.Name, len(r.Domain), wantDomain)
			}
			for j, d := range r.Domain {
				if !(d[0] <= d[1]) {
					t.Errorf("%s: Domain[%d] = %v is empty", r.Name, j, d)
				}
			}
			if r.Kind != Smooth {
				if r.Partials != nil {
					t.Errorf("%s: Kind %v with Partials: want nil", r.Name, r.Kind)
				}
				return
			}
			if len(r.Partials) != len(r.Results) {
				t.Fatalf("%s: %d rows of Partials, want one per result (%d)", r.Name, len(r.Partials), len(r.Results))
			}
			nonzero := 0
			for i, row := range r.Partials {
				if len(row) != len(r.Params) {
					t.Fatalf("%s: Partials[%d] has %d entries, want one per param (%d)", r.Name, i, len(row), len(r.Params))
				}
				for j, p := range row {
					if p == "" {
						continue
					}
					nonzero++
					if !isFloat(sig.Results().At(i).Type()) || !isFloat(sig.Params().At(j).Type()) {
						t.Errorf("%s: ∂%s/∂%s = %q between non-floats: want \"\"", r.Name, r.Results[i], r.Params[j], p)
					}
					e, err := Parse(p)
					if err != nil {
						t.Errorf("%s: ∂%s/∂%s: %v", r.Name, r.Results[i], r.Params[j], err)
						continue
					}
					ast.Inspect(e, func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.SelectorExpr:
							if r.Pkg == "" {
								t.Errorf("%s: ∂%s/∂%s = %q names %s: a helper's partials call helpers only",
									r.Name, r.Results[i], r.Params[j], p, nodeString(n))
							}
							return false // math.F or math.C, checked by Parse
						case *ast.Ident:
							if _, helper := Helpers[n.Name]; !helper && n.Name != Where && !slices.Contains(names, n.Name) {
								t.Errorf("%s: ∂%s/∂%s = %q names %s, not a param or result", r.Name, r.Results[i], r.Params[j], p, n.Name)
							}
						}
						return true
					})
				}
			}
			if nonzero == 0 {
				t.Errorf("%s: Smooth rule with no partials: make it PiecewiseConstant", r.Name)
			}
		})
	}
}

// TestPartialsTypeCheck type-checks every partial as a Go expression in a
// scope holding the rule's params and results with their real types,
// package math, where as func(bool, float64, float64) float64 and the
// helpers: each must be a float64 (or an untyped constant), so that a
// transformer can emit it as is, int params in int positions included.
func TestPartialsTypeCheck(t *testing.T) {
	mathPkg := loadMath(t)
	f64 := types.Typ[types.Float64]
	param := func(name string, typ types.Type) *types.Var { return types.NewParam(token.NoPos, nil, name, typ) }
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		if r.Kind != Smooth {
			continue
		}
		t.Run(r.Pkg+"."+r.Name, func(t *testing.T) {
			sig := signature(t, r)
			pkg := types.NewPackage("p", "p")
			scope := pkg.Scope()
			scope.Insert(types.NewPkgName(token.NoPos, pkg, "math", mathPkg))
			scope.Insert(types.NewFunc(token.NoPos, pkg, Where, types.NewSignatureType(nil, nil, nil,
				types.NewTuple(param("c", types.Typ[types.Bool]), param("a", f64), param("b", f64)),
				types.NewTuple(param("", f64)), false)))
			for _, h := range All() {
				if h.Pkg == TensorPkg {
					continue // tensor rules: internal/e2e/cases/tensorrules
				}
				if h.Pkg == "" && !isBuiltin(h) {
					scope.Insert(types.NewFunc(token.NoPos, pkg, h.Name, signature(t, h)))
				}
			}
			for j, p := range r.Params {
				scope.Insert(types.NewVar(token.NoPos, pkg, p, sig.Params().At(j).Type()))
			}
			for i, res := range r.Results {
				scope.Insert(types.NewVar(token.NoPos, pkg, res, sig.Results().At(i).Type()))
			}
			for i, row := range r.Partials {
				for j, p := range row {
					if p == "" {
						continue
					}
					e, err := Parse(p)
					if err != nil {
						t.Errorf("%s: %v", r.Name, err)
						continue
					}
					info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
					if err := types.CheckExpr(token.NewFileSet(), pkg, token.NoPos, e, info); err != nil {
						t.Errorf("%s: ∂%s/∂%s = %q does not type-check: %v", r.Name, r.Results[i], r.Params[j], p, err)
						continue
					}
					if typ := info.Types[e].Type; !isFloat64(typ) && !isUntypedNumber(typ) {
						t.Errorf("%s: ∂%s/∂%s = %q has type %v, want float64", r.Name, r.Results[i], r.Params[j], p, typ)
					}
				}
			}
		})
	}
}

func isUntypedNumber(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0 && b.Info()&types.IsNumeric != 0
}

// TestCallFuncs checks the functions that expressions may call against
// their signatures: callFuncs holds exactly the functions of package math
// and the helpers with one float64 result and float64 or int parameters,
// with the right int positions.
func TestCallFuncs(t *testing.T) {
	n := 0
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		if r.Pkg != "math" && (r.Pkg != "" || isBuiltin(r)) {
			continue
		}
		sig := signature(t, r)
		callable := sig.Results().Len() == 1 && isFloat64(sig.Results().At(0).Type())
		var ints []bool
		for p := range sig.Params().Variables() {
			switch {
			case isFloat64(p.Type()):
				ints = append(ints, false)
			case types.Identical(p.Type(), types.Typ[types.Int]):
				ints = append(ints, true)
			default:
				callable = false
			}
		}
		k := key(r.Pkg, r.Name)
		f, ok := callFuncs[k]
		switch {
		case callable && !ok:
			t.Errorf("%s%s is missing from callFuncs", k, sig)
		case !callable && ok:
			t.Errorf("%s%s is in callFuncs but not a float64 function of floats and ints", k, sig)
		case ok && !slices.Equal(f.ints, ints):
			t.Errorf("callFuncs[%q].ints = %v, want %v for %s", k, f.ints, ints, sig)
		}
		if ok {
			n++
		}
	}
	if n != len(callFuncs) {
		t.Errorf("callFuncs has %d functions, %d of them of math or helpers", len(callFuncs), n)
	}
	scope := loadMath(t).Scope()
	for name, v := range mathConsts {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok {
			t.Errorf("mathConsts[%q]: no such constant in math", name)
			continue
		}
		if f, _ := constant.Float64Val(c.Val()); f != v {
			t.Errorf("mathConsts[%q] = %v, want %v", name, v, f)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{
		Smooth: "Smooth", PiecewiseConstant: "PiecewiseConstant", NotDifferentiable: "NotDifferentiable", Kind(7): "Kind(7)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}
