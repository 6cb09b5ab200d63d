// A known bug found by difftest's tensor generator (program 73 of seed
// 2), minimized by hand: the same bug as jvp-broadcast-tangent.go, with
// a wrong number instead of a panic. It fails: F jvp (and taylor): the
// tangent of Add(x, w), x fixed, is dw of shape [2] and SumAll sums 2
// elements instead of the 3×2 of the broadcast result: the JVP is a
// third of the derivative.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x fixed 3,2
//difftest:param w tensor 2

//gad:jvp wrt=w
//gad:grad wrt=w
//gad:taylor order=3 wrt=w
func F(x *tensorops.Tensor, w *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Add(x, w))
}
