// A tensor case written by hand: the HVP of a struct by value in which F
// is linear wrote "dmBar.W = dmBar.W", which go vet rejects
// ("self-assignment") (difftest-findings.md, finding 3; fixed in f5ecd68).
package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param m modelval
//difftest:field W tensor 2
//difftest:param x fixed 2

type Model struct {
	W *tensorops.Tensor
}

//gad:jvp wrt=m
//gad:grad wrt=m
//gad:hvp wrt=m
//gad:hessian wrt=m
func F(m Model, x *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Mul(x, m.W))
}
