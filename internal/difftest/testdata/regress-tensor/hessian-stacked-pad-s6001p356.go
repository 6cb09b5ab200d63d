// Tensor program 356 of seed 6001 of difftest's tensor generator. It
// failed: F hessian panic: tensorops: SoftmaxJVP: shapes [5 4] and
// [17 4 4] differ. The Hessian took its 16 unit directions stacked (one
// tensor [16, 4, 4]) although the gradient's JVP pads a tangent
// (tensorops.Pad, which does not compute direction by direction): the
// check of stacked derivatives lost the directions through the
// conversions of Fuse's operands to any, and let it through.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x tensor 4,4
//difftest:param y1 labels 5,4

//gad:hessian wrt=x
//gad:laplacian wrt=x
func F(x *tensorops.Tensor, y1 *tensorops.Tensor) float64 {
	t1 := x
	for i := 0; i < 3; i++ {
		t1 = tensorops.Add(t1, tensorops.Scale(tensorops.SiLU(t1), 0.5))
	}
	t2 := tensorops.Sub(t1, x)
	var acc0 *tensorops.Tensor
	for i := 0; i < 3; i++ {
		acc0 = tensorops.Sub(acc0, tensorops.Scale(tensorops.Erf(t2), float64(i)+0.5))
	}
	t3 := tensorops.Pad(acc0, 0, 0, 1)
	t4 := tensorops.Softmax(t3, 0)
	return tensorops.SoftmaxCrossEntropy(t4, y1)
}
