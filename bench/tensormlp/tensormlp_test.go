package tensormlp

import (
	"fmt"
	"testing"
	"time"

	"github.com/gadgen/gadgen/tensorops"
)

// TestGradients checks the generated gradient against the hand-written
// one, and the JVP against both, on a small network in both dtypes.
func TestGradients(t *testing.T) {
	for _, c := range []struct {
		dt  tensorops.DType
		tol float64
	}{{tensorops.Float64, 1e-12}, {tensorops.Float32, 1e-5}} {
		t.Run(c.dt.String(), func(t *testing.T) {
			m, x, y := New(c.dt, 20, 16, 5, 8, 1)
			g, h := Zeros(m), Zeros(m)
			f := LossGrad(m, g, x, y)
			fh := HandGrad(m, h, x, y)
			if f != Loss(m, x, y) || fh != f {
				t.Errorf("values: grad %v, hand %v, loss %v", f, fh, Loss(m, x, y))
			}
			for i, gt := range g.Tensors() {
				ht := h.Tensors()[i]
				if d := tensorops.MaxAbsDiff(gt, ht); d > c.tol*(1+tensorops.MaxAll(tensorops.Abs(ht))) {
					t.Errorf("tensor %d: generated and hand-written gradients differ by %v", i, d)
				}
			}
			// JVP along the gradient: ⟨∇L, ∇L⟩.
			_, d := LossJVP(m, h, x, y)
			var want float64
			for _, gt := range g.Tensors() {
				want += tensorops.Dot(gt, gt)
			}
			if diff := d - want; diff > c.tol*100*(1+want) || -diff > c.tol*100*(1+want) {
				t.Errorf("JVP along the gradient %v, want ⟨∇L, ∇L⟩ = %v", d, want)
			}
		})
	}
}

// minTime returns the least time per call of f over 5 samples of ≥ 200 ms.
func minTime(f func()) time.Duration {
	n := 1
	for {
		start := time.Now()
		for range n {
			f()
		}
		if time.Since(start) > 50*time.Millisecond {
			break
		}
		n *= 2
	}
	best := time.Duration(1 << 62)
	for range 5 {
		start := time.Now()
		for range n {
			f()
		}
		best = min(best, time.Since(start)/time.Duration(n))
	}
	return best
}

func TestMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	tensorops.SetThreads(1)
	for _, blas := range []string{"openblas", "gonum"} {
		if err := tensorops.SetBLAS(blas); err != nil {
			t.Log(err)
			continue
		}
		for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
			m, x, y := New(dt, In, Hidden, Out, Batch, 1)
			g := Zeros(m)
			tf := minTime(func() { Loss(m, x, y) })
			tg := minTime(func() { LossGrad(m, g, x, y) })
			th := minTime(func() { HandGrad(m, g, x, y) })
			fmt.Printf("%s %s: forward %v grad %v (%.2fx) hand %v (%.2fx)\n", tensorops.BLAS(), dt, tf, tg, float64(tg)/float64(tf), th, float64(th)/float64(tf))
		}
	}
}
