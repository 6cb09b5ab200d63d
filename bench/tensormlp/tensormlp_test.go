package tensormlp

import (
	"fmt"
	"strings"
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
			p := Zeros(m)
			f := LossGrad(m, g, x, y)
			fh := HandGrad(m, h, x, y)
			fp := LossPredictGrad(m, p, x, y)
			if f != Loss(m, x, y) || fh != f || fp != f {
				t.Errorf("values: grad %v, hand %v, through Predict %v, loss %v", f, fh, fp, Loss(m, x, y))
			}
			for i, gt := range g.Tensors() {
				ht, pt := h.Tensors()[i], p.Tensors()[i]
				if d := tensorops.MaxAbsDiff(gt, ht); !(d <= c.tol*(1+tensorops.MaxAll(tensorops.Abs(ht)))) {
					t.Errorf("tensor %d: generated and hand-written gradients differ by %v", i, d)
				}
				if d := tensorops.MaxAbsDiff(pt, ht); !(d <= c.tol*(1+tensorops.MaxAll(tensorops.Abs(ht)))) {
					t.Errorf("tensor %d: the gradient through Predict and the hand-written one differ by %v", i, d)
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

// BenchmarkS5 times, in one run and on one thread, the forward loss, the
// generated gradient and the hand-written backpropagation of the
// 784-256-256-10 perceptron on a batch of 128, for each dtype and each
// BLAS backend available (OpenBLAS when it loads, gonum's pure Go), and
// reports each derivative's time over the forward's (x_forward) and its
// bytes per call. Run it with -cpu 1.
func BenchmarkS5(b *testing.B) {
	tensorops.SetThreads(1)
	defer tensorops.SetThreads(0)
	if strings.HasPrefix(tensorops.BLAS(), "openblas") {
		defer tensorops.SetBLAS("openblas")
	} else {
		defer tensorops.SetBLAS("gonum")
	}
	for _, blas := range []string{"openblas", "gonum"} {
		if err := tensorops.SetBLAS(blas); err != nil {
			b.Logf("%s: %v", blas, err)
			continue
		}
		b.Logf("BLAS: %s", tensorops.BLAS())
		for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
			m, x, y := New(dt, In, Hidden, Out, Batch, 1)
			g := Zeros(m)
			var forward time.Duration
			for _, k := range []struct {
				name string
				f    func()
			}{
				{"forward", func() { Loss(m, x, y) }},
				{"grad", func() { LossGrad(m, g, x, y) }},
				{"grad-predict", func() { LossPredictGrad(m, g, x, y) }},
				{"hand", func() { HandGrad(m, g, x, y) }},
			} {
				b.Run(fmt.Sprintf("%s/%s/%s", blas, dt, k.name), func(b *testing.B) {
					b.ReportAllocs()
					start := time.Now()
					for b.Loop() {
						k.f()
					}
					per := time.Since(start) / time.Duration(b.N)
					if k.name == "forward" {
						forward = per
					} else if forward > 0 {
						b.ReportMetric(float64(per)/float64(forward), "x_forward")
					}
				})
			}
		}
	}
}
