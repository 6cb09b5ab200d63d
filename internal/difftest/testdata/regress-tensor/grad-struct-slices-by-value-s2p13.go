// A case of difftest: program 13 of seed 2 of its tensor generator, minimized.
// It failed: F grad dot: ⟨∇F, v⟩ = 0, JVP(v) = -3.7153798573492685
package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param m modelval
//difftest:field Ws0 slice 2 4,4
//difftest:param x fixed 4,4

type Model struct {
	Ws0 []*tensorops.Tensor
}

func block0(m Model, x *tensorops.Tensor) *tensorops.Tensor {
	h := x
	for _, w := range m.Ws0 {
		h = w
	}
	return h
}

//gad:jvp wrt=m
//gad:grad wrt=m
func F(m Model, x *tensorops.Tensor) float64 {
	t1 := x
	t2 := block0(m, t1)
	return tensorops.SumAll(t2)
}
