// Tensor program 46 of seed 202 of difftest's tensor generator, minimized
// by hand. It failed: F hessian panic: tensorops: Concat: nil tensor. F is
// linear in x: the gradient's JVP returns nil (zero) tangents, which
// FHessian reshapes (nil) into its rows and passes to Concat.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x tensor 3

//gad:jvp wrt=x
//gad:hvp wrt=x
//gad:hessian wrt=x
func F(x *tensorops.Tensor) float64 {
	return tensorops.SumAll(x)
}
