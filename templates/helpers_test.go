package templates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
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
		if got, want := gadDigamma(x+1)-gadDigamma(x), 1/x; math.Abs(got-want) > 1e-13*math.Max(1, math.Abs(want)) {
			t.Errorf("ψ(%v+1) - ψ(%v) = %.17g, want 1/x = %.17g", x, x, got, want)
		}
		// Reflection ψ(1-x) - ψ(x) = π cot(πx).
		if got, want := gadDigamma(1-x)-gadDigamma(x), math.Pi/math.Tan(math.Pi*x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
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

// TestHelpersSource checks Helpers: one entry per helper that Eval knows,
// each the self-contained source of the function, starting at its doc
// comment, that type-checks alone with package math as its only import.
func TestHelpersSource(t *testing.T) {
	if got, want := slices.Sorted(maps.Keys(Helpers)), slices.Sorted(maps.Keys(helperFuncs)); !slices.Equal(got, want) {
		t.Fatalf("Helpers has %v, helperFuncs has %v: want the same names", got, want)
	}
	for name, src := range Helpers {
		if !strings.HasPrefix(src, "// "+name+" ") || !strings.Contains(src, "\nfunc "+name+"(x float64) float64 {\n") || !strings.HasSuffix(src, "}\n") {
			t.Errorf("Helpers[%q] does not hold the commented declaration of %s:\n%s", name, name, src)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name+".go", "package p\n\nimport \"math\"\n\n"+src, parser.ParseComments)
		if err != nil {
			t.Errorf("Helpers[%q] does not parse: %v", name, err)
			continue
		}
		if len(f.Decls) != 2 {
			t.Errorf("Helpers[%q] declares %d things, want one function", name, len(f.Decls)-1)
		}
		conf := types.Config{Importer: sourceImporter{}}
		if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
			t.Errorf("Helpers[%q] is not self-contained: %v", name, err)
		}
	}
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
