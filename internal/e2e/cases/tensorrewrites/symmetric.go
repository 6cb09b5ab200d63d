package tensorrewrites

import "github.com/gadgen/gadgen/tensorops"

// Gram multiplies a matrix by its own transpose: in the derivatives as
// emitted (the Final pipeline), MatMulT(a, a, true, false) →
// Gram(a, true), one triangle by SYRK, the result marked symmetric.
//
//gad:jvp
//gad:grad
func Gram(a *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.MatMulT(a, a, true, false)))
}

// GramT multiplies a matrix by its transpose on the right, written with
// Transpose: MatMul(a, Transpose(a, 1, 0)) → MatMulT(a, a, false, true)
// (transposed-gemm-operand) → Gram(a, false).
//
//gad:jvp
//gad:grad
func GramT(a *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.MatMul(a, tensorops.Transpose(a, 1, 0))))
}

//gad:jvp GramJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Gram opt=0
//gad:grad GramGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Gram opt=0
//gad:jvp GramTJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.GramT opt=0
//gad:grad GramTGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.GramT opt=0
