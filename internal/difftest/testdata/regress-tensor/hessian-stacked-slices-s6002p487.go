// Tensor program 487 of seed 6002 of difftest's tensor generator. It
// failed: F hessian panic: tensorops: SliceGrad: shapes [6 3 1] and [3 2]:
// g does not fit in like at 1 along axis 1. The Hessian took its 6 unit
// directions stacked although the gradient's JVP concatenates tangents
// kept in slices (the heads below) with ConcatGrad and SliceGrad, which
// do not compute direction by direction: the check of stacked derivatives
// did not see the directions stored into the slices that the calls read.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x tensor 2,3

func mix0(c float64, first *tensorops.Tensor, rest ...*tensorops.Tensor) *tensorops.Tensor {
	out := tensorops.SiLU(first)
	for i, t := range rest {
		out = tensorops.Add(out, tensorops.Scale(t, c*float64(i+1)))
	}
	return out
}

//gad:hessian wrt=x
//gad:laplacian wrt=x
func F(x *tensorops.Tensor) float64 {
	t1 := tensorops.Exp(tensorops.Tanh(x))
	t2 := tensorops.Transpose(t1)
	head0 := func(h int) *tensorops.Tensor {
		return tensorops.Neg(tensorops.Slice(t2, 1, h*1, (h+1)*1))
	}
	ps0 := make([]*tensorops.Tensor, 2)
	for h := 0; h < 2; h++ {
		ps0[h] = head0(h)
	}
	t3 := tensorops.Concat(1, ps0...)
	t4 := mix0(1.125, t3, t2)
	t5 := tensorops.Mean(t4, 1)
	return tensorops.MeanAll(t5)
}
