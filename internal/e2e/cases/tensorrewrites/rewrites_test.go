package tensorrewrites

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// bodies returns the source of each function of the generated files
// (rewrites_grad.go when none is named), by name.
func bodies(t *testing.T, files ...string) map[string]string {
	t.Helper()
	if len(files) == 0 {
		files = []string{"rewrites_grad.go"}
	}
	out := map[string]string{}
	for _, file := range files {
		for name, body := range bodiesOf(t, file) {
			out[name] = body
		}
	}
	return out
}

// bodiesOf returns the source of each function of file, by name.
func bodiesOf(t *testing.T, file string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			var sb strings.Builder
			printer.Fprint(&sb, fset, fd.Body)
			out[fd.Name.Name] = sb.String()
		}
	}
	return out
}

// TestRewritesFire checks that each rewrite's pattern is in the code
// generated with opt=0 and not in the optimized code.
func TestRewritesFire(t *testing.T) {
	src := bodies(t)
	for _, c := range []struct {
		rule, pattern string
		funcs         []string
	}{
		{"Transpose(Transpose(x)) → x", "tensorops.Transpose(", []string{"TTJVP", "TTGrad"}},
		{"MatMul(Transpose(a), b) → MatMulT(a, b, true, false)", "tensorops.Transpose(", []string{"MTJVP", "MTGrad"}},
		{"Mul(a, FullLike(b, 1)) → a", "tensorops.FullLike(", []string{"SqGrad"}},
		{"SumLike(g, like) → g", "tensorops.SumLike(", []string{"SqGrad"}},
		{"Slice(f(…)) → f(slices)", "tensorops.Slice(", []string{"SliceOfJVP", "SliceOfGrad"}},
	} {
		for _, fn := range c.funcs {
			if !strings.Contains(src[fn+"O0"], c.pattern) {
				t.Errorf("%s: %sO0 (opt=0) has no %s: the case does not exhibit the rule", c.rule, fn, c.pattern)
			}
			if strings.Contains(src[fn], c.pattern) {
				t.Errorf("%s did not fire in %s: it still has %s", c.rule, fn, c.pattern)
			}
		}
	}
}

// TestRewritesProduce checks the patterns rewrites produce: in the
// optimized code, not in the opt=0 code.
func TestRewritesProduce(t *testing.T) {
	src := bodies(t)
	for _, c := range []struct {
		rule, pattern string
		funcs         []string
	}{
		{"Slice(Mul(a, b), …) → Mul(SliceFor(a, …, b), SliceFor(b, …, a))", "tensorops.SliceFor(", []string{"SliceOfJVP", "SliceOfGrad"}},
		{"MatMul(Transpose(a), b) → MatMulT(a, b, true, false)", "tensorops.MatMulT(a, b, true, false)", []string{"MTJVP", "MTGrad"}},
	} {
		for _, fn := range c.funcs {
			if strings.Contains(src[fn+"O0"], c.pattern) {
				t.Errorf("%s: %sO0 (opt=0) already has %s", c.rule, fn, c.pattern)
			}
			if !strings.Contains(src[fn], c.pattern) {
				t.Errorf("%s did not fire in %s: no %s", c.rule, fn, c.pattern)
			}
		}
	}
}

func close(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !(math.Abs(got-want) <= 1e-13*math.Max(1, math.Abs(want))) {
		t.Errorf("%s: optimized %v, opt=0 %v", what, got, want)
	}
}

func closeT(t *testing.T, what string, got, want *tensorops.Tensor) {
	t.Helper()
	if d := tensorops.MaxAbsDiff(got, want); !(d <= 1e-13*(1+tensorops.MaxAll(tensorops.Abs(want)))) {
		t.Errorf("%s: optimized and opt=0 differ by %v", what, d)
	}
}

// TestRewritesExact checks that the optimized derivatives compute what
// the opt=0 ones do, up to rounding.
func TestRewritesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	dt := tensorops.Float64
	x, w := tensorops.RandN(rng, dt, 3, 4), tensorops.RandN(rng, dt, 3, 4)
	dx, dw := tensorops.RandN(rng, dt, 3, 4), tensorops.RandN(rng, dt, 3, 4)
	f, d := TTJVP(x, dx, w, dw)
	f0, d0 := TTJVPO0(x, dx, w, dw)
	close(t, "TT", f, f0)
	close(t, "TTJVP", d, d0)
	f, xb, wb := TTGrad(x, w)
	f0, xb0, wb0 := TTGradO0(x, w)
	close(t, "TTGrad", f, f0)
	closeT(t, "TTGrad x̄", xb, xb0)
	closeT(t, "TTGrad w̄", wb, wb0)

	a, b := tensorops.RandN(rng, dt, 4, 3), tensorops.RandN(rng, dt, 4, 5)
	da, db := tensorops.RandN(rng, dt, 4, 3), tensorops.RandN(rng, dt, 4, 5)
	f, d = MTJVP(a, da, b, db)
	f0, d0 = MTJVPO0(a, da, b, db)
	close(t, "MT", f, f0)
	close(t, "MTJVP", d, d0)
	f, ab, bb := MTGrad(a, b)
	f0, ab0, bb0 := MTGradO0(a, b)
	close(t, "MTGrad", f, f0)
	closeT(t, "MTGrad ā", ab, ab0)
	closeT(t, "MTGrad b̄", bb, bb0)

	f, xb = SqGrad(x)
	f0, xb0 = SqGradO0(x)
	close(t, "SqGrad", f, f0)
	closeT(t, "SqGrad x̄", xb, xb0)

	x6, dx6 := tensorops.RandN(rng, dt, 6, 4), tensorops.RandN(rng, dt, 6, 4)
	z6, dz6 := tensorops.RandN(rng, dt, 6, 4), tensorops.RandN(rng, dt, 6, 4)
	f, d = SliceOfJVP(x6, dx6, z6, dz6)
	f0, d0 = SliceOfJVPO0(x6, dx6, z6, dz6)
	close(t, "SliceOf", f, f0)
	close(t, "SliceOfJVP", d, d0)
	f, xb, zb := SliceOfGrad(x6, z6)
	f0, xb0, zb0 := SliceOfGradO0(x6, z6)
	close(t, "SliceOfGrad", f, f0)
	closeT(t, "SliceOfGrad x̄", xb, xb0)
	closeT(t, "SliceOfGrad z̄", zb, zb0)
}
