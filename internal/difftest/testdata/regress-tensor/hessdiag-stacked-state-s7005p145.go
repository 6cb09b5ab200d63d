// Tensor program 145 of seed 7005 of difftest's tensor generator. It
// failed: F hessdiag panic: tensorops: MaxAllJVP: shapes [6 2 2] and
// [2 2]: da must have a's shape. The Hessian diagonal took its unit
// directions stacked although the jet reads directions from a state
// struct that a callee's jet steps in place (State.step0's, through its
// coefficient shadows) and passes them to MaxAllJVP and SumAll, which do
// not compute direction by direction: the check of stacked derivatives
// did not see the callee store directions into the memory of its
// arguments, and let it through.

package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param m modelval
//difftest:field W0 tensor 2
//difftest:field W1 tensor 2,2
//difftest:param x fixed 2,2

type Model struct {
	W0 *tensorops.Tensor
	W1 *tensorops.Tensor
}

type Layer struct {
	W, B *tensorops.Tensor
}

func (l Layer) apply0(x *tensorops.Tensor) *tensorops.Tensor {
	return tensorops.Sigmoid(tensorops.Add(tensorops.MatMul(x, l.W), l.B))
}

type State struct {
	H, Sum *tensorops.Tensor
}

func (st *State) step0(x, w *tensorops.Tensor) {
	st.H = tensorops.Cos(tensorops.Add(tensorops.MatMul(st.H, w), x))
	st.Sum = tensorops.Add(st.Sum, st.H)
}

//gad:hessdiag wrt=m
//gad:laplacian wrt=m
func F(m Model, x *tensorops.Tensor) float64 {
	ls0 := []Layer{{W: x, B: m.W0}, {W: m.W1, B: m.W0}}
	t1 := x
	for i := range ls0 {
		t1 = ls0[i].apply0(t1)
	}
	st0 := State{H: x}
	for range 2 {
		st0.step0(m.W0, x)
	}
	t2 := st0.H
	t3 := st0.Sum
	return tensorops.SumAll(t3) + 0.5*tensorops.MaxAll(t3) + 0.25*tensorops.SumAll(t1) + 0.25*tensorops.SumAll(t2)
}
