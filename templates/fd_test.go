package templates

import (
	"fmt"
	"go/ast"
	"go/types"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

const (
	defaultTol = 1e-6
	fdPoints   = 20
)

// fdTol holds the relative tolerance of a rule's partials against central
// differences, by fdKey, where defaultTol is too tight.
var fdTol = map[string]float64{}

// call calls the function of r with the arguments a, ints given as
// integral floats, and returns every result as a float64 (ints as floats,
// bools as 0 or 1).
func call(r *Rule, a []float64) []float64 {
	if isBuiltin(r) {
		if r.Name == "min" {
			return []float64{min(a[0], a[1])}
		}
		return []float64{max(a[0], a[1])}
	}
	fv := reflect.ValueOf(r.Func)
	in := make([]reflect.Value, len(a))
	for i, x := range a {
		in[i] = reflect.ValueOf(x).Convert(fv.Type().In(i))
	}
	var out []float64
	for _, o := range fv.Call(in) {
		switch o.Kind() {
		case reflect.Float64:
			out = append(out, o.Float())
		case reflect.Int:
			out = append(out, float64(o.Int()))
		case reflect.Bool:
			out = append(out, b2f(o.Bool()))
		default:
			panic("templates: result of kind " + o.Kind().String())
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// fdKey names r in messages and in fdTol: "math.Sin", or "max".
func fdKey(r *Rule) string {
	if r.Pkg == "" {
		return r.Name
	}
	return r.Pkg + "." + r.Name
}

// TestFiniteDifferences compares every partial of every Smooth rule, and
// the zero derivative of every PiecewiseConstant rule, with central finite
// differences of the real function at fdPoints seeded random points of the
// rule's Domain. A partial passes when |got - want| ≤ tol·max(|want|, |f|):
// the error of central differences scales with |f|.
func TestFiniteDifferences(t *testing.T) {
	settings := &fd.Settings{Formula: fd.Central}
	for k := range fdTol {
		if _, ok := Lookup(splitKey(k)); !ok {
			t.Errorf("fdTol[%q]: no such rule", k)
		}
	}
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		if r.Kind == NotDifferentiable {
			continue
		}
		t.Run(fdKey(r), func(t *testing.T) {
			tol := fdTol[fdKey(r)]
			if tol == 0 {
				tol = defaultTol
			}
			sig := signature(t, r)
			if !floatToFloat(sig) {
				// math.IsNaN, math.Inf, math.Ilogb, …: no float64 flows to a
				// float64 result, so there is no partial to compare.
				t.Skipf("%s%s: no float64 parameter and float64 result", fdKey(r), sig)
			}
			partials := make([][]ast.Expr, len(r.Results)) // parsed, or nil for zero
			for i := range partials {
				partials[i] = make([]ast.Expr, len(r.Params))
				if r.Kind != Smooth {
					continue
				}
				for j, p := range r.Partials[i] {
					if p == "" {
						continue
					}
					e, err := Parse(p)
					if err != nil {
						t.Fatal(err)
					}
					partials[i][j] = e
				}
			}
			h := fnv.New64a()
			h.Write([]byte(fdKey(r)))
			rng := rand.New(rand.NewPCG(1, h.Sum64()))
			a := make([]float64, len(r.Params))
			compared := 0
			for range fdPoints {
				for j, d := range r.Domain {
					if isFloat(sig.Params().At(j).Type()) {
						a[j] = d[0] + (d[1]-d[0])*rng.Float64()
					} else {
						a[j] = math.Floor(d[0]) + float64(rng.IntN(int(d[1]-d[0])+1))
					}
				}
				res := call(r, a)
				env := make(map[string]float64)
				for j, p := range r.Params {
					env[p] = a[j]
				}
				for i, res := range res {
					env[r.Results[i]] = res
				}
				for j := range r.Params {
					if !isFloat64(sig.Params().At(j).Type()) {
						continue
					}
					for i := range r.Results {
						if !isFloat64(sig.Results().At(i).Type()) {
							continue
						}
						if math.IsNaN(res[i]) || math.IsInf(res[i], 0) {
							if r.Kind == Smooth {
								t.Errorf("%s: %s = %v at %s: the Domain must give finite values", r.Name, r.Results[i], res[i], point(r, a))
							}
							continue
						}
						want := fd.Derivative(func(x float64) float64 {
							b := append([]float64(nil), a...)
							b[j] = x
							return call(r, b)[i]
						}, a[j], settings)
						got := 0.0
						if e := partials[i][j]; e != nil {
							var err error
							if got, err = Eval(e, env); err != nil {
								t.Errorf("%s: ∂%s/∂%s at %s: %v", r.Name, r.Results[i], r.Params[j], point(r, a), err)
								continue
							}
						}
						compared++
						if !(math.Abs(got-want) <= tol*math.Max(math.Abs(want), math.Abs(res[i]))) {
							t.Errorf("%s: ∂%s/∂%s at %s: got %.15g, want %.15g (tol %g)",
								r.Name, r.Results[i], r.Params[j], point(r, a), got, want, tol)
						}
					}
				}
			}
			// Only where the function is finite: a Domain with no such
			// point checks nothing.
			if compared == 0 {
				t.Errorf("%s: no partial compared at %d points: the function is not finite on its Domain", r.Name, fdPoints)
			}
		})
	}
}

// floatToFloat reports whether sig has a float64 parameter and a float64
// result: a partial derivative to compare.
func floatToFloat(sig *types.Signature) bool {
	in, out := false, false
	for p := range sig.Params().Variables() {
		in = in || isFloat64(p.Type())
	}
	for r := range sig.Results().Variables() {
		out = out || isFloat64(r.Type())
	}
	return in && out
}

// splitKey inverts fdKey.
func splitKey(k string) (pkg, name string) {
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		return k[:i], k[i+1:]
	}
	return "", k
}

// point formats the arguments a of r as "x=1.5, y=2".
func point(r *Rule, a []float64) string {
	var b strings.Builder
	for j, p := range r.Params {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%.17g", p, a[j])
	}
	return b.String()
}
