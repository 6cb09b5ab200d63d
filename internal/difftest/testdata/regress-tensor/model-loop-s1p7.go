// Tensor program 7 of seed 1 of difftest's tensor generator.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x tensor 4
//difftest:param w1 tensor 5
//difftest:param w2 tensor 2

func h0(a, b *tensorops.Tensor) *tensorops.Tensor {
	u := tensorops.Mul(tensorops.ReLU(a), b)
	return u
}

//gad:jvp wrt=x,w1,w2
//gad:grad wrt=x,w1,w2
//gad:taylor order=3 wrt=x,w1,w2
func F(x *tensorops.Tensor, w1 *tensorops.Tensor, w2 *tensorops.Tensor) float64 {
	t1 := tensorops.Slice(x, 0, 0, 3)
	t2 := tensorops.Pad(x, 0, 0, 1)
	t3 := tensorops.Div(t2, tensorops.AddScalar(tensorops.Square(w1), 1))
	t4 := tensorops.Slice(t1, 0, 1, 3)
	t5 := h0(t4, w2)
	return tensorops.SumAll(t5) + 0.25*tensorops.SumAll(t3)
}
