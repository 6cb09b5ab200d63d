package gp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

var sizes = []struct{ n, d int }{{1, 1}, {2, 1}, {3, 2}, {10, 2}, {30, 3}}

// TestHandGrad checks HandGrad against central differences of NLL.
func TestHandGrad(t *testing.T) {
	for i, sz := range sizes {
		t.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(t *testing.T) {
			theta, x, y := Data(sz.n, sz.d, uint64(i))
			f := func(theta []float64) float64 { return NLL(theta, x, y) }
			g := make([]float64, len(theta))
			if err := verify.Value(HandGrad(theta, g, x, y), f(theta), verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(f, theta, g, verify.FD); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestGenerated checks gadgen's derivatives against HandGrad to
// verify.Exact (1e-10): the gradients component by component, the JVPs
// along random directions; at the test sizes and at the smallest benchmark
// size.
func TestGenerated(t *testing.T) {
	grads := []struct {
		name string
		grad func(theta, dtheta, x, y []float64) float64
	}{{"NLLGrad", NLLGrad}, {"NLLGradO0", NLLGradO0}}
	jvps := []struct {
		name string
		jvp  func(theta, dtheta, x, y []float64) (float64, float64)
	}{{"NLLJVP", NLLJVP}, {"NLLJVPO0", NLLJVPO0}}
	for i, sz := range append(sizes, struct{ n, d int }{100, 2}) {
		t.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(t *testing.T) {
			theta, x, y := Data(sz.n, sz.d, uint64(i))
			want := make([]float64, len(theta))
			v := NLL(theta, x, y)
			HandGrad(theta, want, x, y)
			for _, c := range grads {
				// The gradients accumulate: start from ones and subtract them.
				g := []float64{1, 1, 1}
				if err := verify.Value(c.grad(theta, g, x, y), v, verify.Exact); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
				for i := range g {
					g[i]--
				}
				if err := verify.Same(g, want, verify.Exact); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
			}
			rnd := rand.New(rand.NewPCG(uint64(i), 7))
			for range 2 {
				dir := []float64{rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()}
				for _, c := range jvps {
					vj, dv := c.jvp(theta, dir, x, y)
					if err := verify.Value(vj, v, verify.Exact); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
					if err := verify.Dot(dv, want, dir, verify.Exact); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
				}
			}
		})
	}
}
