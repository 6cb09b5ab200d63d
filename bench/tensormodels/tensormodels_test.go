package tensormodels

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
	"gonum.org/v1/gonum/diff/fd"
)

// TestHandGrad checks each hand-written gradient against central finite
// differences of the loss, at the small sizes.
func TestHandGrad(t *testing.T) {
	for _, c := range Cases(true, 1) {
		t.Run(c.Name, func(t *testing.T) {
			theta := tensorops.ParamsFlatten(c.Params, c.Params).Float64s()
			loss := func(theta []float64) float64 { return c.Loss(tensorops.ParamsUnflatten(theta, c.Params)) }
			want := fd.Gradient(nil, loss, theta, &fd.Settings{Formula: fd.Central, Step: 1e-6})
			g := ZerosLike(c.Params)
			if f, l := c.Hand(g), c.Loss(c.Params); !(math.Abs(f-l) <= 1e-14*math.Abs(l)) {
				t.Errorf("hand-written gradient's value %v, loss %v", f, l)
			}
			got := tensorops.ParamsFlatten(g, c.Params).Float64s()
			const tol = 1e-7
			for i := range got {
				if !(math.Abs(got[i]-want[i]) <= tol*(1+math.Abs(want[i]))) {
					t.Errorf("∂L/∂θ[%d]: got %v, want %v (finite differences)", i, got[i], want[i])
					break
				}
			}
		})
	}
}

// TestGrad checks each generated gradient against the hand-written one,
// to a relative 1e-10, at the small sizes and at the benchmark's, and
// that it accumulates: called twice, it adds the gradient twice.
func TestGrad(t *testing.T) {
	for _, small := range []bool{true, false} {
		for _, c := range Cases(small, 2) {
			t.Run(c.Name+"/"+c.Size, func(t *testing.T) {
				h, g := ZerosLike(c.Params), ZerosLike(c.Params)
				fh := c.Hand(h)
				if f := c.Grad(g); f != fh && !(math.Abs(f-fh) <= 1e-14*math.Abs(fh)) {
					t.Errorf("generated gradient's value %v, hand-written %v", f, fh)
				}
				c.Grad(g)
				c.Hand(h)
				for i := range c.Params {
					got, want := g[i].Contiguous().Float64s(), h[i].Contiguous().Float64s()
					var scale float64
					for _, w := range want {
						scale = max(scale, math.Abs(w))
					}
					for j := range got {
						if !(math.Abs(got[j]-want[j]) <= 1e-10*scale) {
							t.Errorf("tensor %d, element %d: got %v, want %v (hand-written)", i, j, got[j], want[j])
							break
						}
					}
				}
			})
		}
	}
}
