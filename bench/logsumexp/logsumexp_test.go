package logsumexp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

func TestHandGrad(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 50} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			x := Point(n, uint64(n))
			g := make([]float64, n)
			if err := verify.Value(HandGrad(x, g), LogSumExp(x), verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(LogSumExp, x, g, verify.FD); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestJVP(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 1000} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			x := Point(n, uint64(n))
			g := make([]float64, n)
			HandGrad(x, g)
			rnd := rand.New(rand.NewPCG(uint64(n), 7))
			for range 3 {
				v := make([]float64, n)
				for i := range v {
					v[i] = rnd.NormFloat64()
				}
				f, df := LogSumExpJVP(x, v)
				if err := verify.Value(f, LogSumExp(x), verify.Exact); err != nil {
					t.Error(err)
				}
				if err := verify.Dot(df, g, v, verify.Exact); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
