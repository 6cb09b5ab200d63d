package tensorrewrites

import "github.com/gadgen/gadgen/tensorops"

// Fz's derivatives are chains of elementwise operations (the product
// rule over the sigmoid, the tanh and the exponential, scaled by s),
// which fusion turns into calls of tensorops.Fuse.
//
//gad:jvp
//gad:grad
func Fz(x, w *tensorops.Tensor, s float64) float64 {
	h := tensorops.Tanh(tensorops.Mul(x, w))
	return tensorops.SumAll(tensorops.Mul(tensorops.Sigmoid(h), tensorops.Scale(tensorops.Exp(x), s)))
}

//gad:jvp FzJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Fz opt=0
//gad:grad FzGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Fz opt=0

// Layer's derivatives write elementwise results into the buffers of
// products that nothing reads afterwards (tensorops.FuseInto): the
// activation into its pre-activation, the activation's adjoint into the
// product's. When b broadcasts the product to a larger shape, the buffer
// does not fit and FuseInto allocates. w is square.
//
//gad:jvp
//gad:grad
func Layer(x, w, b *tensorops.Tensor) float64 {
	h := tensorops.Tanh(tensorops.Add(tensorops.MatMul(x, w), b))
	return tensorops.SumAll(tensorops.Mul(h, tensorops.MatMul(h, tensorops.Transpose(w, 1, 0))))
}

//gad:jvp LayerJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Layer opt=0
//gad:grad LayerGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Layer opt=0
