package mlp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

var sizes = []struct{ in, hidden, out, batch int }{
	{1, 1, 1, 1}, {2, 3, 2, 1}, {3, 4, 3, 2}, {5, 7, 4, 3}, {8, 6, 10, 5},
}

// fns returns the loss and its derivatives as functions of the parameter
// vector theta (see Split).
type fns struct {
	loss, flat       func(theta []float64) float64
	hand, flatGrad   func(theta, g []float64) float64
	flatGradO0       func(theta, g []float64) float64
	jvp, flatJVP     func(theta, v []float64) (float64, float64)
	jvpO0, flatJVPO0 func(theta, v []float64) (float64, float64)
}

func flat(in, hidden, out int, x []float64, labels []int) fns {
	split := func(theta []float64) *Net { return Split(theta, in, hidden, out) }
	type jvpFn = func(w1, dw1, b1, db1, w2, dw2, b2, db2, x []float64, labels []int) (float64, float64)
	type gradFn = func(w1, dw1, b1, db1, w2, dw2, b2, db2, x []float64, labels []int) float64
	flatJVP := func(f jvpFn) func(theta, v []float64) (float64, float64) {
		return func(theta, v []float64) (float64, float64) {
			n, dn := split(theta), split(v)
			return f(n.W1, dn.W1, n.B1, dn.B1, n.W2, dn.W2, n.B2, dn.B2, x, labels)
		}
	}
	flatGrad := func(f gradFn) func(theta, g []float64) float64 {
		return func(theta, g []float64) float64 {
			n, dn := split(theta), split(g)
			return f(n.W1, dn.W1, n.B1, dn.B1, n.W2, dn.W2, n.B2, dn.B2, x, labels)
		}
	}
	return fns{
		loss: func(theta []float64) float64 { return split(theta).Loss(x, labels) },
		flat: func(theta []float64) float64 {
			n := split(theta)
			return LossFlat(n.W1, n.B1, n.W2, n.B2, x, labels)
		},
		hand: func(theta, g []float64) float64 { return HandGrad(split(theta), split(g), x, labels) },
		jvp: func(theta, v []float64) (float64, float64) {
			return split(theta).LossJVP(split(v), x, labels)
		},
		jvpO0: func(theta, v []float64) (float64, float64) {
			return LossJVPO0(split(theta), split(v), x, labels)
		},
		flatJVP:    flatJVP(LossFlatJVP),
		flatJVPO0:  flatJVP(LossFlatJVPO0),
		flatGrad:   flatGrad(LossFlatGrad),
		flatGradO0: flatGrad(LossFlatGradO0),
	}
}

func name(in, hidden, out, batch int) string {
	return fmt.Sprintf("%d-%d-%d,batch=%d", in, hidden, out, batch)
}

// TestHandGrad checks HandGrad against central differences of Net.Loss,
// and LossFlat against Net.Loss.
func TestHandGrad(t *testing.T) {
	for i, sz := range sizes {
		t.Run(name(sz.in, sz.hidden, sz.out, sz.batch), func(t *testing.T) {
			theta, x, labels := Data(sz.in, sz.hidden, sz.out, sz.batch, uint64(i))
			f := flat(sz.in, sz.hidden, sz.out, x, labels)
			y := f.loss(theta)
			if err := verify.Value(f.flat(theta), y, verify.Exact); err != nil {
				t.Errorf("LossFlat against Net.Loss: %v", err)
			}
			g := make([]float64, len(theta))
			if err := verify.Value(f.hand(theta, g), y, verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(f.loss, theta, g, verify.FD); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestGenerated checks gadgen's derivatives against HandGrad: the
// gradients component by component, the JVPs along random directions,
// both to verify.Exact (1e-10), at the test sizes and at the benchmark's.
func TestGenerated(t *testing.T) {
	all := append(sizes, struct{ in, hidden, out, batch int }{In, Hidden, Out, Batch})
	for i, sz := range all {
		t.Run(name(sz.in, sz.hidden, sz.out, sz.batch), func(t *testing.T) {
			theta, x, labels := Data(sz.in, sz.hidden, sz.out, sz.batch, uint64(i))
			f := flat(sz.in, sz.hidden, sz.out, x, labels)
			y := f.loss(theta)
			want := make([]float64, len(theta))
			f.hand(theta, want)
			grads := []struct {
				name string
				grad func(theta, g []float64) float64
			}{{"LossFlatGrad", f.flatGrad}, {"LossFlatGradO0", f.flatGradO0}}
			for _, c := range grads {
				// The gradients accumulate: start from ones and subtract them.
				g := make([]float64, len(theta))
				for i := range g {
					g[i] = 1
				}
				if err := verify.Value(c.grad(theta, g), y, verify.Exact); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
				for i := range g {
					g[i]--
				}
				if err := verify.Same(g, want, verify.Exact); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
			}
			jvps := []struct {
				name string
				jvp  func(theta, v []float64) (float64, float64)
			}{{"Net.LossJVP", f.jvp}, {"LossJVPO0", f.jvpO0}, {"LossFlatJVP", f.flatJVP}, {"LossFlatJVPO0", f.flatJVPO0}}
			rnd := rand.New(rand.NewPCG(uint64(i), 7))
			for range 2 {
				v := make([]float64, len(theta))
				for i := range v {
					v[i] = rnd.NormFloat64()
				}
				for _, c := range jvps {
					yj, dy := c.jvp(theta, v)
					if err := verify.Value(yj, y, verify.Exact); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
					if err := verify.Dot(dy, want, v, verify.Exact); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
				}
			}
		})
	}
}
