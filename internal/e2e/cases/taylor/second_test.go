package taylor

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

func TestSecondOrder(t *testing.T) {
	for _, n := range []int{1, 2, 5} {
		gadtest.HVP(t, Energy, EnergyHVP, gadtest.Dim(n))
		gadtest.Hessian(t, Energy, EnergyHessian, gadtest.Dim(n))
		gadtest.HessDiag(t, Energy, EnergyHessDiag, gadtest.Dim(n))
		gadtest.Laplacian(t, Energy, EnergyLaplacian, gadtest.Dim(n))
		gadtest.HVP(t, Chain, ChainHVP, gadtest.Dim(n))
		gadtest.Laplacian(t, Mixed, MixedLaplacian, gadtest.Dim(n))
		gadtest.HessDiag(t, Mixed, MixedHessDiag, gadtest.Dim(n))
		gadtest.Laplacian(t, Chain, ChainLaplacian, gadtest.Dim(n))
	}
}

// TestCollapsed: the collapsed Laplacian (8 directions per call) equals
// the sum of the plain Hessian diagonal, for sizes around multiples of 8.
func TestCollapsed(t *testing.T) {
	r := gadtest.NewRand(5)
	for _, n := range []int{1, 7, 8, 9, 17} {
		x := gadtest.Uniform(r, n, -1, 1)
		d := make([]float64, n)
		MixedHessDiag(x, d)
		want := 0.0
		for _, v := range d {
			want += v
		}
		if _, got := MixedLaplacian(x); !(math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("n = %d: collapsed Laplacian %v, Σ diagonal %v", n, got, want)
		}
	}
}
