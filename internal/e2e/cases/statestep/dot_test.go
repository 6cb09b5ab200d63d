package statestep

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

// TestReverseDot checks every //gad:grad of this package against its JVP
// by the dot-product test ⟨∇F, v⟩ = JVP(x, v), and against central finite
// differences along v.
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Energy", F: Energy, JVP: EnergyJVP, Grad: EnergyGrad, Int: 40},
		{Name: "Anharmonic", F: Anharmonic, JVP: AnharmonicJVP, Grad: AnharmonicGrad, Int: 25, Rel: 1e-9},
		{Name: "Run", F: Run, JVP: RunJVP, Grad: RunGrad, Int: 30},
		{Name: "NBody", F: NBody, JVP: NBodyJVP, Grad: NBodyGrad, Lo: 0.5, Hi: 1.5, Int: 20, Rel: 1e-8},
		{Name: "NBodySegments", F: NBodySegments, JVP: NBodySegmentsJVP, Grad: NBodySegmentsGrad, Lo: 0.5, Hi: 1.5, Int: 7, Rel: 1e-8},
		{Name: "Cloud", F: Cloud, JVP: CloudJVP, Grad: CloudGrad, Int: 6, Rel: 1e-9},
		{Name: "Helpers", F: Helpers, JVP: HelpersJVP, Grad: HelpersGrad, Int: 12, Rel: 1e-9},
		{Name: "Buffers", F: Buffers, JVP: BuffersJVP, Grad: BuffersGrad, Lo: 0.5, Hi: 1, Int: 7, Rel: 1e-9},
		{Name: "ByValue", F: ByValue, JVP: ByValueJVP, Grad: ByValueGrad, Int: 9, Rel: 1e-9},
		{Name: "ByValueCheckpointed", F: ByValue, JVP: ByValueJVP, Grad: ByValueCheckpointedGrad, Int: 9, Rel: 1e-9},
		{Name: "Given", F: Given, JVP: GivenJVP, Grad: GivenGrad, Int: 9, Rel: 1e-9},
		{Name: "Relax", F: Relax, JVP: RelaxJVP, Grad: RelaxGrad, Lo: 0.2, Hi: 0.4, Int: 6, Rel: 1e-8},
		{Name: "Refined", F: Refined, JVP: RefinedJVP, Grad: RefinedGrad, Int: 2, Rel: 1e-9},
	})
}

// TestFinalState checks that RunGrad leaves the state it is given as Run
// does, though its reverse sweep rolls the state back step by step.
func TestFinalState(t *testing.T) {
	mk := func() *state {
		return &state{t: 0.5, q: []float64{1, -0.5, 0.25}, v: []float64{0.1, 0.2, -0.3}}
	}
	want, got := mk(), mk()
	f := Run(want, 1.3, 12)
	g, _ := RunGrad(got, &state{q: make([]float64, 3), v: make([]float64, 3)}, 1.3, 12)
	if g != f {
		t.Errorf("RunGrad = %v, want %v", g, f)
	}
	fdcheck.Close(t, "q", got.q, want.q, 0)
	fdcheck.Close(t, "v", got.v, want.v, 0)
	if got.t != want.t {
		t.Errorf("t = %v, want %v", got.t, want.t)
	}
}

// TestEnergyFD checks the gradient of the program in k alone
// against a central difference, over many steps.
func TestEnergyFD(t *testing.T) {
	q0 := []float64{1, -0.5, 0.3, 0.8}
	for _, tc := range []struct {
		k     float64
		steps int
		rel   float64
	}{{1.7, 50, 1e-7}, {0.3, 400, 1e-7}, {4, 1, 1e-8}} {
		_, kBar, _ := energyGradK(tc.k, q0, tc.steps)
		const h = 1e-6
		fd := (Energy(tc.k+h, q0, tc.steps) - Energy(tc.k-h, q0, tc.steps)) / (2 * h)
		fdcheck.Close(t, "dE/dk", []float64{kBar}, []float64{fd}, tc.rel)
	}
}

func energyGradK(k float64, q0 []float64, steps int) (float64, float64, []float64) {
	q0Bar := make([]float64, len(q0))
	e, kBar := EnergyGrad(k, q0, q0Bar, steps)
	return e, kBar, q0Bar
}

// TestSettledSecond checks Settled's Hessian diagonal and an HVP against
// central differences of its gradient, and that q0 is left as it was.
func TestSettledSecond(t *testing.T) {
	q0 := []float64{0.4, -0.3, 0.8, 0.1}
	keep := append([]float64(nil), q0...)
	grad := func(x []float64) []float64 {
		g := make([]float64, len(x))
		SettledGrad(append([]float64(nil), x...), g)
		return g
	}
	const h = 1e-5
	n := len(q0)
	hess := make([][]float64, n) // hess[j] = ∂∇f/∂x_j by central differences
	for j := range n {
		xp, xm := append([]float64(nil), q0...), append([]float64(nil), q0...)
		xp[j] += h
		xm[j] -= h
		gp, gm := grad(xp), grad(xm)
		hess[j] = make([]float64, n)
		for i := range n {
			hess[j][i] = (gp[i] - gm[i]) / (2 * h)
		}
	}
	diag := make([]float64, n)
	f := SettledHessDiag(q0, diag)
	if want := Settled(append([]float64(nil), q0...)); f != want {
		t.Errorf("SettledHessDiag's value = %v, want %v", f, want)
	}
	wantDiag := make([]float64, n)
	for i := range n {
		wantDiag[i] = hess[i][i]
	}
	fdcheck.Close(t, "diag", diag, wantDiag, 1e-6)
	v := []float64{0.3, -1, 0.5, 2}
	hv := make([]float64, n)
	SettledHVP(q0, v, hv)
	wantHV := make([]float64, n)
	for j := range n {
		for i := range n {
			wantHV[i] += hess[j][i] * v[j]
		}
	}
	fdcheck.Close(t, "Hv", hv, wantHV, 1e-6)
	fdcheck.Close(t, "q0", q0, keep, 0)
}

// TestSegmentsSame checks that NBodySegments' gradient, whose segments are
// checkpoints, is NBody's.
func TestSegmentsSame(t *testing.T) {
	m := []float64{1, 0.7, 1.3}
	x0 := []float64{0.2, -0.4, 0.9, 0.1, -0.6, 0.5}
	g1, g2 := make([]float64, 6), make([]float64, 6)
	m1, m2 := make([]float64, 3), make([]float64, 3)
	f1 := NBodyGrad(m, m1, x0, g1, 23)
	f2 := NBodySegmentsGrad(m, m2, x0, g2, 23, 5)
	if f1 != f2 {
		t.Errorf("NBodySegments = %v, want NBody's %v", f2, f1)
	}
	fdcheck.Close(t, "x0Bar", g2, g1, 1e-12)
	fdcheck.Close(t, "mBar", m2, m1, 1e-12)
}
