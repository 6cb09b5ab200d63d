package tensorrewrites

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestSymmetricFires checks that the products of a matrix by its own
// transpose are SYRKs (tensorops.Gram) in the optimized derivatives and
// GEMMs in the opt=0 ones. GramTJVP has none: product merging stacks
// a·aᵀ with da·aᵀ first (one GEMM that reads aᵀ once).
func TestSymmetricFires(t *testing.T) {
	src := bodies(t, "symmetric_grad.go")
	for _, c := range []struct {
		fn, gram, gemm string
	}{
		{"GramJVP", "tensorops.Gram(a, true)", "tensorops.MatMulT(a, a, true, false)"},
		{"GramGrad", "tensorops.Gram(a, true)", "tensorops.MatMulT(a, a, true, false)"},
		{"GramTGrad", "tensorops.Gram(a, false)", "tensorops.MatMul(a, t)"},
	} {
		if !strings.Contains(src[c.fn+"O0"], c.gemm) {
			t.Errorf("%sO0 (opt=0) has no %s: the case does not exhibit the rule", c.fn, c.gemm)
		}
		if strings.Contains(src[c.fn+"O0"], "tensorops.Gram(") {
			t.Errorf("%sO0 (opt=0) already has tensorops.Gram(", c.fn)
		}
		if !strings.Contains(src[c.fn], c.gram) {
			t.Errorf("syrk did not fire in %s: no %s", c.fn, c.gram)
		}
		if strings.Contains(src[c.fn], c.gemm) {
			t.Errorf("syrk did not fire in %s: it still has %s", c.fn, c.gemm)
		}
	}
	if !strings.Contains(src["GramTJVP"], "tensorops.MatMulEach(a, true, a, da)") {
		t.Errorf("GramTJVP: a·aᵀ and da·aᵀ not merged:\n%s", src["GramTJVP"])
	}
}

// TestSymmetricExact checks that the derivatives with SYRK compute what
// the opt=0 ones do, up to rounding, for odd shapes.
func TestSymmetricExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	dt := tensorops.Float64
	near := func(what string, got, want float64) {
		t.Helper()
		if !(math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("%s: optimized %v, opt=0 %v", what, got, want)
		}
	}
	nearT := func(what string, got, want *tensorops.Tensor) {
		t.Helper()
		if d := tensorops.MaxAbsDiff(got, want); !(d <= 1e-12*(1+tensorops.MaxAll(tensorops.Abs(want)))) {
			t.Errorf("%s: optimized and opt=0 differ by %v", what, d)
		}
	}
	for _, shape := range [][2]int{{5, 3}, {3, 5}, {1, 1}, {17, 9}} {
		a := tensorops.Scale(tensorops.RandN(rng, dt, shape[0], shape[1]), 0.5)
		da := tensorops.RandN(rng, dt, shape[0], shape[1])
		f, d := GramJVP(a, da)
		f0, d0 := GramJVPO0(a, da)
		near("Gram", f, f0)
		near("Gram", f, Gram(a))
		near("GramJVP", d, d0)
		f, ab := GramGrad(a)
		f0, ab0 := GramGradO0(a)
		near("GramGrad", f, f0)
		nearT("GramGrad ā", ab, ab0)
		// The gradient against the tangent: ⟨ā, da⟩ = JVP along da.
		near("⟨GramGrad ā, da⟩", tensorops.Dot(ab, da), d)

		f, d = GramTJVP(a, da)
		f0, d0 = GramTJVPO0(a, da)
		near("GramT", f, f0)
		near("GramTJVP", d, d0)
		f, ab = GramTGrad(a)
		f0, ab0 = GramTGradO0(a)
		near("GramTGrad", f, f0)
		nearT("GramTGrad ā", ab, ab0)
		near("⟨GramTGrad ā, da⟩", tensorops.Dot(ab, da), d)
	}
}
