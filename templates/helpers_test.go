package templates

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

const eulerGamma = 0.57721566490153286060651209008240243104215933593992

func TestDigammaValues(t *testing.T) {
	// Known values: ψ(1) = -γ, ψ(1/2) = -γ - 2 ln 2, ψ(1/4) = -γ - π/2 - 3 ln 2,
	// ψ(1/3) = -γ - π/(2√3) - (3/2) ln 3, ψ(n) = H(n-1) - γ,
	// ψ(n+1/2) = -γ - 2 ln 2 + Σ_{k=1..n} 2/(2k-1), ψ(x) = ψ(x+1) - 1/x.
	type tc struct {
		x, want, tol float64
	}
	cases := []tc{
		{1, -eulerGamma, 1e-15},
		{0.5, -eulerGamma - 2*math.Ln2, 1e-15},
		{0.25, -eulerGamma - math.Pi/2 - 3*math.Ln2, 1e-15},
		{1.0 / 3, -eulerGamma - math.Pi/(2*math.Sqrt(3)) - 1.5*math.Log(3), 1e-15},
		{-0.5, -eulerGamma - 2*math.Ln2 + 2, 1e-14},
		{-1.5, -eulerGamma - 2*math.Ln2 + 2 + 2.0/3, 1e-14},
		{1e-8, -1e8 - eulerGamma + math.Pi*math.Pi/6*1e-8, 1e-15},
		{1e10, math.Log(1e10) - 0.5e-10, 1e-15},
		// ψ(x) = ψ(1-x) - π/tan(πx) far from 0: ψ(-1e5 + 0.5) = ψ(1e5 + 0.5).
		{-1e5 + 0.5, gadDigamma(1e5 + 0.5), 1e-13},
	}
	h := 0.0 // H(n-1)
	for n := 1; n <= 40; n++ {
		cases = append(cases, tc{float64(n), h - eulerGamma, 1e-15})
		h += 1 / float64(n)
	}
	s := 0.0 // Σ_{k=1..n} 2/(2k-1)
	for n := 0; n <= 40; n++ {
		cases = append(cases, tc{float64(n) + 0.5, -eulerGamma - 2*math.Ln2 + s, 1e-15})
		s += 2 / float64(2*n+1)
	}
	for _, c := range cases {
		got := gadDigamma(c.x)
		if !(math.Abs(got-c.want) <= c.tol*math.Max(1, math.Abs(c.want))) {
			t.Errorf("gadDigamma(%v) = %.17g, want %.17g (tol %g)", c.x, got, c.want, c.tol)
		}
	}
}

func TestDigammaIdentities(t *testing.T) {
	for _, x := range []float64{-7.3, -2.5, -0.999, -0.25, 0.001, 0.3, 1.4616321449683622, 2.7, 9.99, 10, 55.5} {
		// Recurrence ψ(x+1) - ψ(x) = 1/x.
		if got, want := gadDigamma(x+1)-gadDigamma(x), 1/x; !(math.Abs(got-want) <= 1e-13*math.Max(1, math.Abs(want))) {
			t.Errorf("ψ(%v+1) - ψ(%v) = %.17g, want 1/x = %.17g", x, x, got, want)
		}
		// Reflection ψ(1-x) - ψ(x) = π cot(πx), but at an integer x, where
		// both sides are poles (ψ(1-x) is NaN, TestDigammaSpecial's).
		if x == math.Trunc(x) {
			continue
		}
		if got, want := gadDigamma(1-x)-gadDigamma(x), math.Pi/math.Tan(math.Pi*x); !(math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("ψ(1-%v) - ψ(%v) = %.17g, want π cot(πx) = %.17g", x, x, got, want)
		}
	}
}

func TestDigammaSpecial(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1), -1, -2, -1e300, math.NaN(), math.Inf(-1)} {
		if got := gadDigamma(x); !math.IsNaN(got) {
			t.Errorf("gadDigamma(%v) = %v, want NaN", x, got)
		}
	}
	if got := gadDigamma(math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("gadDigamma(+Inf) = %v, want +Inf", got)
	}
}

// TestPolygammaValues compares gadPolygamma with mpmath's polygamma at
// points on both sides of 0, and with ψ⁽ⁿ⁾(x) = (-1)ⁿ⁺¹n!·ζ(n+1, x)
// (gonum's Hurwitz zeta) at seeded random points.
func TestPolygammaValues(t *testing.T) {
	cases := []struct {
		n       int
		x, want float64
	}{
		// mpmath.polygamma(n, x) at 40 digits, x the float64 shown.
		{1, 1, 1.6449340668482264365},
		{1, 0.5, 4.9348022005446793094},
		{1, 0.001, 1000001.6425331958273},
		{1, 0.25, 17.197329154507110739},
		{1, 3.7, 0.31003785767003830216},
		{1, 25, 0.040810663257225579187},
		{1, 1000000.0, 1.0000005000001666667e-6},
		{1, -0.5, 8.9348022005446793094},
		{1, -2.3, 14.725912160961291488},
		{2, 1, -2.4041138063191885708},
		{2, 0.3, -75.272536588726038917},
		{2, 7.25, -0.021828952295197739222},
		{2, -1.6, -22.491588114319122863},
		{2, 40, -0.00064082027183529858776},
		{3, 2.5, 0.22390584881725205126},
		{3, -0.7, 768.13135232685265003},
		{3, 0.05, 960005.38832231298212},
		{4, 1.5, -3.4742498266672251905},
		{4, -3.2, 74935.483412054695357},
		{5, 0.8, 461.59599795899233105},
		{6, 12.5, -0.000039706347132434678367},
		{6, -0.1, 7199998486.1189668976},
		{8, 2, -80.978398747634885328},
		{8, -4.4, 149809052.1353196284},
		{10, 0.6, -1000249352.8622015674},
		{12, 3.3, -90.022050506853712284},
		{12, -1.25, 32145233093861362.402},
	}
	for _, c := range cases {
		if got := gadPolygamma(c.n, c.x); !(math.Abs(got-c.want) <= 1e-14*math.Abs(c.want)) {
			t.Errorf("gadPolygamma(%d, %v) = %.17g, want %.17g", c.n, c.x, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n, x := 1+rng.IntN(12), math.Exp(rng.Float64()*10-5) // x in [e⁻⁵, e⁵]
		fact := 1.0
		for i := 2; i <= n; i++ {
			fact *= float64(i)
		}
		want := fact * mathext.Zeta(float64(n+1), x)
		if n%2 == 0 {
			want = -want
		}
		if got := gadPolygamma(n, x); !(math.Abs(got-want) <= 1e-13*math.Abs(want)) {
			t.Errorf("gadPolygamma(%d, %v) = %.17g, want (-1)ⁿ⁺¹n!ζ(n+1, x) = %.17g", n, x, got, want)
		}
	}
}

// TestPolygammaIdentities checks the recurrence ψ⁽ⁿ⁾(x+1) - ψ⁽ⁿ⁾(x) =
// (-1)ⁿn!/xⁿ⁺¹, which links the reflected branch (x < 0) to the direct one.
func TestPolygammaIdentities(t *testing.T) {
	for n := 1; n <= 8; n++ {
		fact := 1.0
		for i := 2; i <= n; i++ {
			fact *= float64(i)
		}
		for _, x := range []float64{-7.3, -2.5, -0.999, -0.25, 0.001, 0.3, 2.7, 9.99, 10, 55.5} {
			want := fact / math.Pow(x, float64(n+1))
			if n%2 == 1 {
				want = -want
			}
			a, b := gadPolygamma(n, x+1), gadPolygamma(n, x)
			if got := a - b; !(math.Abs(got-want) <= 1e-13*math.Max(math.Abs(a), math.Abs(b))) {
				t.Errorf("ψ⁽%d⁾(%v+1) - ψ⁽%d⁾(%v) = %.17g, want %.17g", n, x, n, x, got, want)
			}
		}
	}
}

func TestPolygammaSpecial(t *testing.T) {
	for _, c := range []struct {
		n int
		x float64
	}{{0, 1}, {-1, 2}, {1, 0}, {1, -1}, {2, -3}, {1, math.NaN()}, {3, math.Inf(-1)}} {
		if got := gadPolygamma(c.n, c.x); !math.IsNaN(got) {
			t.Errorf("gadPolygamma(%d, %v) = %v, want NaN", c.n, c.x, got)
		}
	}
	if got := gadPolygamma(2, math.Inf(1)); got != 0 {
		t.Errorf("gadPolygamma(2, +Inf) = %v, want 0", got)
	}
}

// TestHelpersSource checks Helpers: one entry per helper rule, each the
// self-contained source of the function, starting at its doc comment,
// that type-checks alone with package math as its only import.
func TestHelpersSource(t *testing.T) {
	var names []string
	for _, r := range All() {
		if r.Pkg == TensorPkg {
			continue // tensor rules: internal/e2e/cases/tensorrules
		}
		if r.Pkg == "" && !isBuiltin(r) {
			names = append(names, r.Name)
		}
	}
	if got := slices.Sorted(maps.Keys(Helpers)); !slices.Equal(got, names) {
		t.Fatalf("Helpers has %v, the helper rules %v: want the same names", got, names)
	}
	for name, src := range Helpers {
		if !strings.HasPrefix(src, "// "+name+" ") || !strings.Contains(src, "\nfunc "+name+"(") || !strings.HasSuffix(src, "}\n") {
			t.Errorf("Helpers[%q] does not hold the commented declaration of %s:\n%s", name, name, src)
		}
		if _, err := checkHelper(name); err != nil {
			t.Errorf("Helpers[%q]: %v", name, err)
		}
	}
}

// checkHelper type-checks the source of the helper name alone, in a
// package importing math, and returns the package.
func checkHelper(name string) (*types.Package, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name+".go", "package p\n\nimport \"math\"\n\n"+Helpers[name], parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("does not parse: %v", err)
	}
	if len(f.Decls) != 2 {
		return nil, fmt.Errorf("declares %d things, want one function", len(f.Decls)-1)
	}
	conf := types.Config{Importer: sourceImporter{}}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, fmt.Errorf("not self-contained: %v", err)
	}
	return pkg, nil
}

// sourceImporter imports package math only, as loaded by mathPackage.
type sourceImporter struct{}

func (sourceImporter) Import(path string) (*types.Package, error) {
	if path != "math" {
		return nil, &importError{path}
	}
	return mathPackage()
}

type importError struct{ path string }

func (e *importError) Error() string { return "helpers may import only math, not " + e.path }
