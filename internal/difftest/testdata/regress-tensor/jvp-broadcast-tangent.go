// A known bug found by difftest's tensor generator (programs 0 and 19 of
// seed 1), minimized by hand. It fails: F jvp (and taylor): panic
// "tensorops: TanhJVP: shapes [3 2] and [2] differ": the tangent of
// Add(x, w) with x fixed is dw itself, of w's shape [2], not broadcast to
// the result's [3 2] (the nil convention Add(nil, b) = b), and the next
// rule that is not broadcasting (TanhJVP, SigmoidJVP, MatMulT) gets it.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x fixed 3,2
//difftest:param w tensor 2

//gad:jvp wrt=w
//gad:grad wrt=w
//gad:taylor order=3 wrt=w
//gad:hvp wrt=w
func F(x *tensorops.Tensor, w *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.Add(x, w)))
}
