package templates

import (
	"fmt"
	"go/ast"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

// fdCase is how the finite-difference test calls one function: f takes
// the arguments as float64 (ints as integral floats) and returns every
// result as float64 (ints as floats, bools as 0 or 1). tol is the relative
// tolerance of a partial against central differences; 0 means defaultTol.
type fdCase struct {
	f   func(a []float64) []float64
	tol float64
}

const (
	defaultTol = 1e-6
	fdPoints   = 20
)

func v1(f func(float64) float64) fdCase {
	return fdCase{f: func(a []float64) []float64 { return []float64{f(a[0])} }}
}

func v2(f func(float64, float64) float64) fdCase {
	return fdCase{f: func(a []float64) []float64 { return []float64{f(a[0], a[1])} }}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// fdFuncs calls the functions of the rules, keyed by "math.Name" or, for
// builtins, "name". It must cover every rule that is not NotDifferentiable.
var fdFuncs = map[string]fdCase{
	"math.Abs":         v1(math.Abs),
	"math.Acos":        v1(math.Acos),
	"math.Acosh":       v1(math.Acosh),
	"math.Asin":        v1(math.Asin),
	"math.Asinh":       v1(math.Asinh),
	"math.Atan":        v1(math.Atan),
	"math.Atan2":       v2(math.Atan2),
	"math.Atanh":       v1(math.Atanh),
	"math.Cbrt":        v1(math.Cbrt),
	"math.Ceil":        v1(math.Ceil),
	"math.Copysign":    v2(math.Copysign),
	"math.Cos":         v1(math.Cos),
	"math.Cosh":        v1(math.Cosh),
	"math.Dim":         v2(math.Dim),
	"math.Erf":         v1(math.Erf),
	"math.Erfc":        v1(math.Erfc),
	"math.Erfcinv":     v1(math.Erfcinv),
	"math.Erfinv":      v1(math.Erfinv),
	"math.Exp":         v1(math.Exp),
	"math.Exp2":        v1(math.Exp2),
	"math.Expm1":       v1(math.Expm1),
	"math.FMA":         {f: func(a []float64) []float64 { return []float64{math.FMA(a[0], a[1], a[2])} }},
	"math.Floor":       v1(math.Floor),
	"math.Frexp":       {f: func(a []float64) []float64 { fr, e := math.Frexp(a[0]); return []float64{fr, float64(e)} }},
	"math.Gamma":       v1(math.Gamma),
	"math.Hypot":       v2(math.Hypot),
	"math.Ilogb":       {f: func(a []float64) []float64 { return []float64{float64(math.Ilogb(a[0]))} }},
	"math.Inf":         {f: func(a []float64) []float64 { return []float64{math.Inf(int(a[0]))} }},
	"math.IsInf":       {f: func(a []float64) []float64 { return []float64{b2f(math.IsInf(a[0], int(a[1])))} }},
	"math.IsNaN":       {f: func(a []float64) []float64 { return []float64{b2f(math.IsNaN(a[0]))} }},
	"math.J0":          v1(math.J0),
	"math.J1":          v1(math.J1),
	"math.Jn":          {f: func(a []float64) []float64 { return []float64{math.Jn(int(a[0]), a[1])} }},
	"math.Ldexp":       {f: func(a []float64) []float64 { return []float64{math.Ldexp(a[0], int(a[1]))} }},
	"math.Lgamma":      {f: func(a []float64) []float64 { lg, s := math.Lgamma(a[0]); return []float64{lg, float64(s)} }},
	"math.Log":         v1(math.Log),
	"math.Log10":       v1(math.Log10),
	"math.Log1p":       v1(math.Log1p),
	"math.Log2":        v1(math.Log2),
	"math.Logb":        v1(math.Logb),
	"math.Max":         v2(math.Max),
	"math.Min":         v2(math.Min),
	"math.Mod":         v2(math.Mod),
	"math.Modf":        {f: func(a []float64) []float64 { i, f := math.Modf(a[0]); return []float64{i, f} }},
	"math.NaN":         {f: func([]float64) []float64 { return []float64{math.NaN()} }},
	"math.Pow":         v2(math.Pow),
	"math.Pow10":       {f: func(a []float64) []float64 { return []float64{math.Pow10(int(a[0]))} }},
	"math.Remainder":   v2(math.Remainder),
	"math.Round":       v1(math.Round),
	"math.RoundToEven": v1(math.RoundToEven),
	"math.Signbit":     {f: func(a []float64) []float64 { return []float64{b2f(math.Signbit(a[0]))} }},
	"math.Sin":         v1(math.Sin),
	"math.Sincos":      {f: func(a []float64) []float64 { s, c := math.Sincos(a[0]); return []float64{s, c} }},
	"math.Sinh":        v1(math.Sinh),
	"math.Sqrt":        v1(math.Sqrt),
	"math.Tan":         v1(math.Tan),
	"math.Tanh":        v1(math.Tanh),
	"math.Trunc":       v1(math.Trunc),
	"math.Y0":          v1(math.Y0),
	"math.Y1":          v1(math.Y1),
	"math.Yn":          {f: func(a []float64) []float64 { return []float64{math.Yn(int(a[0]), a[1])} }},
	"max":              v2(func(x, y float64) float64 { return max(x, y) }),
	"min":              v2(func(x, y float64) float64 { return min(x, y) }),
}

// fdKey is the key of r in fdFuncs.
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
	for k := range fdFuncs {
		if _, ok := Lookup(splitKey(k)); !ok {
			t.Errorf("fdFuncs[%q]: no such rule", k)
		}
	}
	for _, r := range All() {
		if r.Kind == NotDifferentiable {
			continue
		}
		t.Run(fdKey(r), func(t *testing.T) {
			c, ok := fdFuncs[fdKey(r)]
			if !ok {
				t.Fatalf("%s: no entry in fdFuncs: add one calling the function", fdKey(r))
			}
			tol := c.tol
			if tol == 0 {
				tol = defaultTol
			}
			sig := signature(t, r)
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
			for range fdPoints {
				for j, d := range r.Domain {
					if isFloat(sig.Params().At(j).Type()) {
						a[j] = d[0] + (d[1]-d[0])*rng.Float64()
					} else {
						a[j] = math.Floor(d[0]) + float64(rng.IntN(int(d[1]-d[0])+1))
					}
				}
				res := c.f(a)
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
							return c.f(b)[i]
						}, a[j], settings)
						got := 0.0
						if e := partials[i][j]; e != nil {
							var err error
							if got, err = Eval(e, env); err != nil {
								t.Errorf("%s: ∂%s/∂%s at %s: %v", r.Name, r.Results[i], r.Params[j], point(r, a), err)
								continue
							}
						}
						if !(math.Abs(got-want) <= tol*math.Max(math.Abs(want), math.Abs(res[i]))) {
							t.Errorf("%s: ∂%s/∂%s at %s: got %.15g, want %.15g (tol %g)",
								r.Name, r.Results[i], r.Params[j], point(r, a), got, want, tol)
						}
					}
				}
			}
		})
	}
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
