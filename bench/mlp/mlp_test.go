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

// vec turns functions of a network (and its shadow) into functions of the
// parameter vector theta (see Split).
type vec struct {
	in, hidden, out int
	x               []float64
	labels          []int
}

func (d vec) split(theta []float64) *Net { return Split(theta, d.in, d.hidden, d.out) }

func (d vec) loss(theta []float64) float64 { return d.split(theta).Loss(d.x, d.labels) }

func (d vec) grad(f func(n, dn *Net, x []float64, labels []int) float64) func(theta, g []float64) float64 {
	return func(theta, g []float64) float64 { return f(d.split(theta), d.split(g), d.x, d.labels) }
}

func (d vec) jvp(f func(n, dn *Net, x []float64, labels []int) (float64, float64)) func(theta, v []float64) (float64, float64) {
	return func(theta, v []float64) (float64, float64) { return f(d.split(theta), d.split(v), d.x, d.labels) }
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
			d := vec{sz.in, sz.hidden, sz.out, x, labels}
			y := d.loss(theta)
			n := d.split(theta)
			if err := verify.Value(LossFlat(n.W1, n.B1, n.W2, n.B2, x, labels), y, verify.Exact); err != nil {
				t.Errorf("LossFlat against Net.Loss: %v", err)
			}
			g := make([]float64, len(theta))
			if err := verify.Value(d.grad(HandGrad)(theta, g), y, verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(d.loss, theta, g, verify.FD); err != nil {
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
			d := vec{sz.in, sz.hidden, sz.out, x, labels}
			y := d.loss(theta)
			want := make([]float64, len(theta))
			d.grad(HandGrad)(theta, want)
			grads := []struct {
				name string
				grad func(theta, g []float64) float64
			}{
				{"Net.LossGrad", d.grad((*Net).LossGrad)}, {"LossGradO0", d.grad(LossGradO0)},
				{"LossFlatGrad", d.grad(FlatGrad(LossFlatGrad))}, {"LossFlatGradO0", d.grad(FlatGrad(LossFlatGradO0))},
			}
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
			}{
				{"Net.LossJVP", d.jvp((*Net).LossJVP)}, {"LossJVPO0", d.jvp(LossJVPO0)},
				{"LossFlatJVP", d.jvp(FlatJVP(LossFlatJVP))}, {"LossFlatJVPO0", d.jvp(FlatJVP(LossFlatJVPO0))},
			}
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
