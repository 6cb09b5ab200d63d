package models

import (
	"math"
	"math/rand/v2"
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
		{Name: "Fit", F: Fit, JVP: FitJVP, Grad: FitGrad},
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
		{Name: "Layers", Len: 13,
			F: func(p []float64) float64 { return Layers(p[:6], p[6:9], p[9:12], p[12:13], p[:2]) },
			JVP: func(p, dp []float64) (float64, float64) {
				return LayersJVP(p[:6], dp[:6], p[6:9], dp[6:9], p[9:12], dp[9:12], p[12:13], dp[12:13], p[:2], dp[:2])
			},
			Grad: func(p, dp []float64) float64 {
				// Slices of one vector share memory, which the gradient
				// forbids: give each its own copy and add the shadows.
				w1, b1, w2, b2, x := clone(p[:6]), clone(p[6:9]), clone(p[9:12]), clone(p[12:13]), clone(p[:2])
				dw1, db1, dw2, db2, dx := make([]float64, 6), make([]float64, 3), make([]float64, 3), make([]float64, 1), make([]float64, 2)
				f := LayersGrad(w1, dw1, b1, db1, w2, dw2, b2, db2, x, dx)
				addTo(dp[:6], dw1)
				addTo(dp[6:9], db1)
				addTo(dp[9:12], dw2)
				addTo(dp[12:13], db2)
				addTo(dp[:2], dx)
				return f
			}},
		{Name: "Grow", F: Grow, JVP: GrowJVP, Grad: GrowGrad},
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

func clone(x []float64) []float64 { return append([]float64(nil), x...) }

func addTo(dst, x []float64) {
	for i, v := range x {
		dst[i] += v
	}
}

// TestSliceResultVJP checks the VJP of a function returning a slice
// against its JVP: ⟨VJP(x, s), v⟩ = ⟨s, JVP(x, v)⟩ for random x, v and
// seeds s, and its primal result against the function's.
func TestSliceResultVJP(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for k := range 10 {
		n := 2 + k%5
		x, v, s := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], v[i], s[i] = 4*r.Float64()-2, 2*r.Float64()-1, 2*r.Float64()-1
		}
		dx := make([]float64, n)
		y := SoftmaxVJP(clone(x), dx, clone(s))
		y2, dy := SoftmaxJVP(clone(x), clone(v))
		want := Softmax(clone(x))
		lhs, rhs, mag := 0.0, 0.0, 0.0
		for i := range x {
			if y[i] != want[i] || y2[i] != want[i] {
				t.Fatalf("point %d: primal results %v, %v; want %v", k, y, y2, want)
			}
			lhs += dx[i] * v[i]
			rhs += s[i] * dy[i]
			mag += math.Abs(dx[i]*v[i]) + math.Abs(s[i]*dy[i])
		}
		if !(math.Abs(lhs-rhs) <= 1e-12*mag) {
			t.Errorf("point %d: ⟨VJP(s), v⟩ = %.17g, ⟨s, JVP(v)⟩ = %.17g", k, lhs, rhs)
		}
	}
}
