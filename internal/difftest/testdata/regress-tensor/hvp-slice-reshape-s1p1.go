// Tensor program 1 of seed 1 of difftest's tensor generator.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x tensor 5

//gad:jvp wrt=x
//gad:grad wrt=x
//gad:taylor order=3 wrt=x
//gad:hvp wrt=x
func F(x *tensorops.Tensor) float64 {
	t1 := tensorops.Slice(x, 0, 1, 3)
	t2 := tensorops.Reshape(t1, 1, 2)
	t3 := tensorops.Exp(tensorops.Sigmoid(t2))
	return tensorops.SumAll(t3)
}
