package taylor

import (
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
		gadtest.Laplacian(t, Chain, ChainLaplacian, gadtest.Dim(n))
	}
}
