// A tensor case written by hand: the JVP and the jet of a struct by value
// whose tangent struct has nil slices (Model{}) panicked "index out of
// range" while the pointer form (&Model{}) was grown (difftest-findings.md,
// finding 2; fixed in 1dfcb74).
package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param m modelval
//difftest:field Ws0 slice 1 2,2
//difftest:param x fixed 3,2

type Model struct {
	Ws0 []*tensorops.Tensor
}

//gad:jvp wrt=m
//gad:grad wrt=m
//gad:taylor order=3 wrt=m
func F(m Model, x *tensorops.Tensor) float64 {
	h := x
	for _, w := range m.Ws0 {
		h = tensorops.Tanh(tensorops.MatMul(h, w))
	}
	return tensorops.SumAll(h)
}
