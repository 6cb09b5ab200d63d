package normalize

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

func TestHandGrad(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 50} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			x, c := Data(n, uint64(n))
			f := func(x []float64) float64 { return Loss(x, c) }
			g := make([]float64, n)
			if err := verify.Value(HandGrad(x, g, c), f(x), verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(f, x, g, verify.FD); err != nil {
				t.Error(err)
			}
		})
	}
}

// jvpTol is verify.Exact with an absolute floor: at n = 1 the gradient is
// zero, the difference of c/‖x‖ and (c·x)·x/‖x‖³, both of order 1, and the
// JVP gets it to within rounding of those terms.
var jvpTol = verify.Tol{Rel: verify.Exact.Rel, Abs: 1e-14}

func TestJVP(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 300} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			x, c := Data(n, uint64(n))
			g := make([]float64, n)
			HandGrad(x, g, c)
			rnd := rand.New(rand.NewPCG(uint64(n), 7))
			for range 3 {
				v := make([]float64, n)
				for i := range v {
					v[i] = rnd.NormFloat64()
				}
				f, df := LossJVP(x, v, c)
				if err := verify.Value(f, Loss(x, c), verify.Exact); err != nil {
					t.Error(err)
				}
				if err := verify.Dot(df, g, v, jvpTol); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
