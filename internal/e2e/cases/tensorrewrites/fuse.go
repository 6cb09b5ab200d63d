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
