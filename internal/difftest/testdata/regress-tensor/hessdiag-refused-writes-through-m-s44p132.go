// A case of difftest: program 132 of seed 44 of its tensor generator, minimized.
// It was refused: F hessdiag (none): //gad:hessdiag evaluates F several times, and F writes through m: each evaluation …: ./p3_hessdiag/prog.go:25:1: gadgen: cannot differentiate F: //gad:hessdiag evaluates F several times, and F writes through m: each evaluation would start from what the last one wrote
package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param m modelval
//difftest:field Ws0 slice 2 2,2
//difftest:field W1 tensor 2,2
//difftest:param x fixed 2,2

type Model struct {
	Ws0 []*tensorops.Tensor
	W1  *tensorops.Tensor
}

func (m Model) block0(x *tensorops.Tensor) *tensorops.Tensor {
	h := x
	for range m.Ws0 {
	}
	return h
}

//gad:jvp wrt=m
//gad:grad wrt=m
//gad:taylor order=3 wrt=m
//gad:hvp wrt=m
//gad:hessdiag wrt=m
func F(m Model, x *tensorops.Tensor) float64 {
	ps0 := make([]*tensorops.Tensor, 2)
	for h := range 2 {
		ps0[h] = x
	}
	t1 := tensorops.Concat(0, ps0...)
	t2 := m.block0(t1)
	t3 := t2
	return tensorops.SumAll(t3)
}
