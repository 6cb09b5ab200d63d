package tensorrewrites

import "github.com/gadgen/gadgen/tensorops"

// Layers applies two tanh layers of one weight matrix. Its JVP multiplies
// w by the value and by the tangent of each layer's input, its HVP also by
// the adjoint and the adjoint's tangent: the products sharing w are merged
// into one GEMM each (tensorops.MatMulEach, MatMulGradAEach).
//
//gad:jvp wrt=x
//gad:hvp wrt=x
func Layers(w, x *tensorops.Tensor) float64 {
	h := tensorops.Tanh(tensorops.MatMul(x, w))
	h = tensorops.Tanh(tensorops.MatMul(h, w))
	return tensorops.SumAll(h)
}

//gad:jvp LayersJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Layers wrt=x opt=0
//gad:hvp LayersHVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Layers wrt=x opt=0
