package lstm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

var sizes = []struct{ l, c, b int }{{1, 2, 1}, {1, 3, 2}, {2, 4, 3}, {2, 5, 14}, {3, 6, 4}}

// flat returns Loss, HandGrad and LossJVP as functions of the parameter
// vector theta = [main | extra].
func flat(main, state, seq []float64) (
	f func(theta []float64) float64,
	grad func(theta, g []float64) float64,
	jvp func(theta, v []float64) (float64, float64),
) {
	m := len(main)
	f = func(theta []float64) float64 { return Loss(theta[:m], theta[m:], state, seq) }
	grad = func(theta, g []float64) float64 {
		return HandGrad(theta[:m], g[:m], theta[m:], g[m:], state, seq)
	}
	jvp = func(theta, v []float64) (float64, float64) {
		return LossJVP(theta[:m], v[:m], theta[m:], v[m:], state, seq)
	}
	return f, grad, jvp
}

func TestHandGrad(t *testing.T) {
	for i, sz := range sizes {
		t.Run(fmt.Sprintf("l=%d,c=%d,b=%d", sz.l, sz.c, sz.b), func(t *testing.T) {
			main, extra, state, seq := Data(sz.l, sz.c, sz.b, uint64(i))
			f, grad, _ := flat(main, state, seq)
			theta := append(main, extra...)
			state0 := append([]float64(nil), state...)
			g := make([]float64, len(theta))
			if err := verify.Value(grad(theta, g), f(theta), verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(f, theta, g, verify.FD); err != nil {
				t.Error(err)
			}
			if err := verify.Same(state, state0, verify.Exact); err != nil {
				t.Errorf("the state changed: %v", err)
			}
		})
	}
}

func TestJVP(t *testing.T) {
	for i, sz := range append(sizes, struct{ l, c, b int }{4, 100, 14}) {
		t.Run(fmt.Sprintf("l=%d,c=%d,b=%d", sz.l, sz.c, sz.b), func(t *testing.T) {
			main, extra, state, seq := Data(sz.l, sz.c, sz.b, uint64(i))
			f, grad, jvp := flat(main, state, seq)
			theta := append(main, extra...)
			g := make([]float64, len(theta))
			grad(theta, g)
			rnd := rand.New(rand.NewPCG(uint64(i), 7))
			for range 3 {
				v := make([]float64, len(theta))
				for i := range v {
					v[i] = rnd.NormFloat64()
				}
				y, dy := jvp(theta, v)
				if err := verify.Value(y, f(theta), verify.Exact); err != nil {
					t.Error(err)
				}
				if err := verify.Dot(dy, g, v, verify.Exact); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
