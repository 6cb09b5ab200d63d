package softmax

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// f and jvp flatten Softmax: the inputs are x, the outputs dst.
func f(x []float64) []float64 {
	dst := make([]float64, len(x))
	Softmax(dst, x)
	return dst
}

func jvp(x, v []float64) []float64 {
	dst, ddst := make([]float64, len(x)), make([]float64, len(x))
	SoftmaxJVP(dst, ddst, x, v)
	return ddst
}

func TestSoftmaxJVP(t *testing.T) {
	for _, n := range []int{1, 2, 5, 50} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			pts := fdcheck.Points(uint64(n), 10, fdcheck.Box(n, -5, 5))
			fdcheck.Test(t, f, jvp, pts, nil)
			// The closed form: d softmax = s ⊙ (v − s·v).
			for _, p := range pts {
				dst, ddst := make([]float64, n), make([]float64, n)
				SoftmaxJVP(dst, ddst, p.X, p.V)
				fdcheck.Close(t, "dst", dst, f(p.X), 1e-14)
				sv := fdcheck.Dot(dst, p.V)
				want := make([]float64, n)
				for i := range want {
					want[i] = dst[i] * (p.V[i] - sv)
				}
				fdcheck.Close(t, "ddst", ddst, want, 1e-10)
			}
		})
	}
}

// Large inputs: the max subtraction keeps the primal finite, and it must
// keep the tangent finite too. (Softmax is invariant under translation, so
// the finite-difference step need not grow with |x|.)
func TestSoftmaxJVPLarge(t *testing.T) {
	pts := fdcheck.Points(7, 10, fdcheck.Box(4, 700, 710))
	fdcheck.Test(t, f, jvp, pts, &fdcheck.Settings{Step: 1e-8})
}

func TestSoftmaxJVPPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "softmax: length mismatch" {
			t.Errorf("recovered %v, want the primal's panic", r)
		}
	}()
	SoftmaxJVP(make([]float64, 2), make([]float64, 2), make([]float64, 3), make([]float64, 3))
}
