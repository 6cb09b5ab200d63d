package gmm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

var sizes = []struct{ k, d, n int }{{1, 1, 1}, {1, 2, 3}, {2, 2, 5}, {3, 4, 10}, {5, 3, 20}}

// flat returns LogPosterior, HandGrad and LogPosteriorJVP as functions of
// the parameter vector theta (see Split).
func flat(k, d int, x []float64) (
	f func(theta []float64) float64,
	grad func(theta, g []float64) float64,
	jvp func(theta, v []float64) (float64, float64),
) {
	f = func(theta []float64) float64 {
		p := Split(theta, k, d)
		return LogPosterior(p.Alpha, p.Mu, p.Q, p.L, x, d)
	}
	grad = func(theta, g []float64) float64 {
		p, dp := Split(theta, k, d), Split(g, k, d)
		return HandGrad(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
	}
	jvp = func(theta, v []float64) (float64, float64) {
		p, dp := Split(theta, k, d), Split(v, k, d)
		return LogPosteriorJVP(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
	}
	return f, grad, jvp
}

func TestHandGrad(t *testing.T) {
	for i, sz := range sizes {
		t.Run(fmt.Sprintf("K=%d,D=%d,N=%d", sz.k, sz.d, sz.n), func(t *testing.T) {
			theta, x := Data(sz.k, sz.d, sz.n, uint64(i))
			f, grad, _ := flat(sz.k, sz.d, x)
			g := make([]float64, len(theta))
			if err := verify.Value(grad(theta, g), f(theta), verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(f, theta, g, verify.FD); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestJVP(t *testing.T) {
	for i, sz := range append(sizes, struct{ k, d, n int }{25, 10, 100}) {
		t.Run(fmt.Sprintf("K=%d,D=%d,N=%d", sz.k, sz.d, sz.n), func(t *testing.T) {
			theta, x := Data(sz.k, sz.d, sz.n, uint64(i))
			f, grad, jvp := flat(sz.k, sz.d, x)
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

func TestSplit(t *testing.T) {
	theta := make([]float64, 2*(1+2*3+3))
	p := Split(theta, 2, 3)
	if len(p.Alpha) != 2 || len(p.Mu) != 6 || len(p.Q) != 6 || len(p.L) != 6 {
		t.Errorf("Split: got lengths %d, %d, %d, %d; want 2, 6, 6, 6", len(p.Alpha), len(p.Mu), len(p.Q), len(p.L))
	}
}
