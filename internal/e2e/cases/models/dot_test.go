package models

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its JVP
// by the dot-product test ⟨∇F, v⟩ = JVP(x, v) and against central
// differences. Models whose slices must agree in length are built from one
// flat vector of parameters, whose shadow is the gradient's shadow.
func TestReverseDot(t *testing.T) {
	const nIn, nHid, nOut = 3, 4, 2
	x := []float64{0.3, -0.8, 0.5}
	xs := []float64{0.3, -0.8, 0.5, 0.9, 0.1, -0.4}
	labels := []int{1, 0}
	netLen := nHid*nIn + nHid + nOut*nHid + nOut
	net := func(p []float64) *Net {
		return &Net{W1: p[:nHid*nIn], B1: p[nHid*nIn : nHid*nIn+nHid], W2: p[nHid*nIn+nHid : netLen-nOut], B2: p[netLen-nOut:]}
	}
	// Stack: 3 → 4 → 2 → 1.
	widths := []int{3, 4, 2, 1}
	stackLen := 0
	for i := 1; i < len(widths); i++ {
		stackLen += widths[i]*widths[i-1] + widths[i]
	}
	stack := func(p []float64) *Stack {
		s := &Stack{}
		for i := 1; i < len(widths); i++ {
			nw := widths[i] * widths[i-1]
			s.Layers = append(s.Layers, Layer{W: p[:nw], B: p[nw : nw+widths[i]]})
			p = p[nw+widths[i]:]
		}
		return s
	}
	dottest.Run(t, []dottest.Case{
		{Name: "Net.Loss", Len: netLen,
			F:    func(p []float64) float64 { return net(p).Loss(x, 1) },
			JVP:  func(p, dp []float64) (float64, float64) { return net(p).LossJVP(net(dp), x, 1) },
			Grad: func(p, dp []float64) float64 { return net(p).LossGrad(net(dp), x, 1) }},
		{Name: "Net.BatchLoss", Len: netLen,
			F:    func(p []float64) float64 { return net(p).BatchLoss(xs, labels) },
			JVP:  func(p, dp []float64) (float64, float64) { return net(p).BatchLossJVP(net(dp), xs, labels) },
			Grad: func(p, dp []float64) float64 { return net(p).BatchLossGrad(net(dp), xs, labels) }},
		{Name: "Predict", F: Predict, JVP: PredictJVP, Grad: PredictGrad},
		{Name: "Stack.Forward", Len: stackLen,
			F: func(p []float64) float64 { return stack(p).Forward(x) },
			JVP: func(p, dp []float64) (float64, float64) {
				return stack(p).ForwardJVP(stack(dp), x, make([]float64, len(x)))
			},
			Grad: func(p, dp []float64) float64 { return stack(p).ForwardGrad(stack(dp), x, make([]float64, len(x))) }},
		{Name: "Stack.Forward/x", Len: 3,
			F: func(x []float64) float64 { return stack(fill(stackLen)).Forward(x) },
			JVP: func(x, dx []float64) (float64, float64) {
				return stack(fill(stackLen)).ForwardJVP(stack(make([]float64, stackLen)), x, dx)
			},
			Grad: func(x, dx []float64) float64 {
				return stack(fill(stackLen)).ForwardGrad(stack(make([]float64, stackLen)), x, dx)
			}},
		{Name: "Energy", F: Energy, JVP: EnergyJVP, Grad: EnergyGrad, Lo: 0.5, Hi: 2},
		{Name: "Step", F: Step, JVP: StepJVP, Grad: StepGrad, Lo: 0.5, Hi: 2},
		{Name: "Branchy", F: Branchy, JVP: BranchyJVP, Grad: BranchyGrad},
		{Name: "Nested", F: Nested, JVP: NestedJVP, Grad: NestedGrad},
		{Name: "Trajectory", F: Trajectory, JVP: TrajectoryJVP, Grad: TrajectoryGrad, Int: 7},
		{Name: "Concat", F: Concat, JVP: ConcatJVP, Grad: ConcatGrad, Len: 5},
	})
}

// fill returns n parameters that are not all alike.
func fill(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 0.3 * float64(i%7-3)
	}
	return p
}
