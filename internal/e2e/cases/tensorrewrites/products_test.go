package tensorrewrites

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestMergeProducts checks that the products sharing a weight matrix are
// merged in the optimized derivatives (not with opt=0), and that the
// numbers agree.
func TestMergeProducts(t *testing.T) {
	src := bodies(t, "products_grad.go")
	for _, c := range []struct{ fn, pattern string }{
		{"LayersJVP", "tensorops.MatMulEach("},
		{"layersGradWrtXJVP", "tensorops.MatMulEach("},
		{"layersGradWrtXJVP", "tensorops.MatMulGradAEach("},
	} {
		if !strings.Contains(src[c.fn], c.pattern) {
			t.Errorf("%s has no %s: the products were not merged", c.fn, c.pattern)
		}
		if o0 := src[c.fn+"O0"] + src[strings.Replace(c.fn, "JVP", "O0JVPO0", 1)]; o0 == "" || strings.Contains(o0, c.pattern) {
			t.Errorf("%s with opt=0: missing, or has %s", c.fn, c.pattern)
		}
	}
	rng := rand.New(rand.NewPCG(5, 1))
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		w := tensorops.Scale(tensorops.RandN(rng, dt, 5, 5), 0.5)
		for _, shape := range [][]int{{5}, {1, 5}, {3, 5}} {
			x, dx := tensorops.RandN(rng, dt, shape...), tensorops.RandN(rng, dt, shape...)
			f, d := LayersJVP(w, x, dx)
			f0, d0 := LayersJVPO0(w, x, dx)
			tol := 1e-13
			if dt == tensorops.Float32 {
				tol = 1e-5
			}
			closeTol(t, "Layers", f, f0, tol)
			closeTol(t, "LayersJVP", d, d0, tol)
			f, hv := LayersHVP(w, x, dx)
			f0, hv0 := LayersHVPO0(w, x, dx)
			closeTol(t, "LayersHVP f", f, f0, tol)
			if diff := tensorops.MaxAbsDiff(hv, hv0); !(diff <= tol*(1+tensorops.MaxAll(tensorops.Abs(hv0)))) {
				t.Errorf("LayersHVP %v %v: optimized and opt=0 differ by %v", dt, shape, diff)
			}
		}
	}
}

func closeTol(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*(1+math.Abs(want))) {
		t.Errorf("%s: optimized %v, opt=0 %v", what, got, want)
	}
}
