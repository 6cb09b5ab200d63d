package tensorrewrites

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestFuseFires checks that elementwise fusion fires in Fz's optimized
// derivatives (their chains are calls of tensorops.Fuse, with the
// expressions shown, a scalar operand among them) and not in the
// opt=0 ones.
func TestFuseFires(t *testing.T) {
	src := bodies(t, "fuse_grad.go")
	for _, c := range []struct {
		fn, pattern string
	}{
		{"FzJVP", `"a*SigmoidJVP(b, TanhJVP(c, d*e + f*g)) + b*(h + i*j)",`},
		{"FzGrad", `tensorops.Fuse("TanhJVP(a, SigmoidJVP(b, c))", h, t, t7)`},
		{"FzGrad", `tensorops.Fuse("a*(b*c) + d", t2, s, t8, t10)`},
	} {
		if !strings.Contains(src[c.fn], c.pattern) {
			t.Errorf("fuse-elementwise did not fire in %s: no %s", c.fn, c.pattern)
		}
		if strings.Contains(src[c.fn+"O0"], "tensorops.Fuse(") {
			t.Errorf("%sO0 (opt=0) calls tensorops.Fuse", c.fn)
		}
	}
}

// TestFuseExact checks that Fz's fused derivatives compute what the
// opt=0 ones do, up to rounding (the other rewrites reorder sums), on
// float64 and float32, with broadcasting operands.
func TestFuseExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		tol := 1e-13
		if dt == tensorops.Float32 {
			tol = 1e-5
		}
		for _, wshape := range [][]int{{3, 40}, {40}} {
			x, dx := tensorops.RandN(rng, dt, 3, 40), tensorops.RandN(rng, dt, 3, 40)
			w, dw := tensorops.RandN(rng, dt, wshape...), tensorops.RandN(rng, dt, wshape...)
			f, d := FzJVP(x, dx, w, dw, 0.7, -0.2)
			f0, d0 := FzJVPO0(x, dx, w, dw, 0.7, -0.2)
			closeTol(t, "Fz", f, f0, tol)
			closeTol(t, "FzJVP", d, d0, tol)
			f, xb, wb, sb := FzGrad(x, w, 0.7)
			f0, xb0, wb0, sb0 := FzGradO0(x, w, 0.7)
			closeTol(t, "FzGrad", f, f0, tol)
			closeTol(t, "FzGrad s̄", sb, sb0, tol)
			if d := tensorops.MaxAbsDiff(xb, xb0); d > tol*(1+tensorops.MaxAll(tensorops.Abs(xb0))) {
				t.Errorf("FzGrad x̄ (%v, w %v): optimized and opt=0 differ by %v", dt, wshape, d)
			}
			if d := tensorops.MaxAbsDiff(wb, wb0); d > tol*(1+tensorops.MaxAll(tensorops.Abs(wb0))) {
				t.Errorf("FzGrad w̄ (%v, w %v): optimized and opt=0 differ by %v", dt, wshape, d)
			}
		}
	}
}
