package checkpointed

import (
	"math"
	"slices"
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

// TestReverseDot checks every checkpointed gradient against its JVP by the
// dot-product test and against central differences, over more steps than
// copies.
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Chain", F: Chain, JVP: ChainJVP, Grad: ChainGrad, Int: 40},
		{Name: "KickDrift", F: KickDrift, JVP: KickDriftJVP, Grad: KickDriftGrad, Int: 25, Rel: 1e-9},
		{Name: "Pendulums", F: Pendulums, JVP: PendulumsJVP, Grad: PendulumsGrad, Int: 30, Rel: 1e-9},
		{Name: "Heat", F: Heat, JVP: HeatJVP, Grad: HeatGrad, Len: 7, Int: 20, Rel: 1e-9},
		{Name: "Driven", F: Driven, JVP: DrivenJVP, Grad: DrivenGrad, Int: 30, Rel: 1e-9},
		{Name: "Timed", F: Timed, JVP: TimedJVP, Grad: TimedGrad, Int: 30, Rel: 1e-9},
		{Name: "Sums", F: Sums, JVP: SumsJVP, Grad: SumsGrad, Len: 9, Rel: 1e-9},
		{Name: "Windows", F: Windows, JVP: WindowsJVP, Grad: WindowsGrad, Len: 9, Rel: 1e-9},
	})
}

// steps are step counts below, at and above the 3 copies, and large
// enough for a schedule to run steps three times.
var steps = []int{0, 1, 2, 3, 4, 5, 9, 17, 64}

// same checks that a checkpointed gradient equals the plain one: the same
// value, and adjoints to rounding (the steps run again compute the same
// numbers, so they are equal in practice).
func same(t *testing.T, name string, n int, f, g float64, got, want []float64) {
	t.Helper()
	if f != g {
		t.Errorf("%s, %d steps: value %v, plain %v", name, n, f, g)
	}
	fdcheck.Close(t, name, got, want, 1e-13)
}

func TestSameAsPlain(t *testing.T) {
	q0 := []float64{0.3, -0.8, 0.5, 1.1}
	v0 := []float64{0.1, 0.2, -0.4, 0}
	for _, n := range steps {
		gq, pq := make([]float64, 4), make([]float64, 4)
		f, k := ChainGrad(1.7, q0, gq, n)
		g, pk := ChainPlainGrad(1.7, q0, pq, n)
		same(t, "Chain", n, f, g, append(gq, k), append(pq, pk))

		gq, pq = make([]float64, 4), make([]float64, 4)
		gv, pv := make([]float64, 4), make([]float64, 4)
		f, k, c := KickDriftGrad(1.3, 0.4, q0, gq, v0, gv, n)
		g, pk, pc := KickDriftPlainGrad(1.3, 0.4, q0, pq, v0, pv, n)
		same(t, "KickDrift", n, f, g, slices.Concat(gq, gv, []float64{k, c}), slices.Concat(pq, pv, []float64{pk, pc}))

		gq, pq = make([]float64, 4), make([]float64, 4)
		f, k, c = DrivenGrad(1.1, 0.7, q0, gq, n)
		g, pk, pc = DrivenPlainGrad(1.1, 0.7, q0, pq, n)
		same(t, "Driven", n, f, g, append(gq, k, c), append(pq, pk, pc))

		gq, pq = make([]float64, 4), make([]float64, 4)
		f, k, c = TimedGrad(1.1, 0.7, q0, gq, n)
		g, pk, pc = TimedPlainGrad(1.1, 0.7, q0, pq, n)
		same(t, "Timed", n, f, g, append(gq, k, c), append(pq, pk, pc))

		gx, px := make([]float64, n+1), make([]float64, n+1)
		x := make([]float64, n+1)
		for i := range x {
			x[i] = 0.1 * float64(i%5)
		}
		f, k = SumsGrad(x, gx, 1.3)
		g, pk = SumsPlainGrad(x, px, 1.3)
		same(t, "Sums", n, f, g, append(gx, k), append(px, pk))

		seq := make([]float64, n+2)
		for i := range seq {
			seq[i] = 0.3 * math.Sin(float64(i))
		}
		gq, pq = make([]float64, 4), make([]float64, 4)
		gs, ps := make([]float64, n+2), make([]float64, n+2)
		f, k = WindowsGrad(1.2, q0, gq, seq, gs)
		g, pk = WindowsPlainGrad(1.2, q0, pq, seq, ps)
		same(t, "Windows", n, f, g, slices.Concat(gq, gs, []float64{k}), slices.Concat(pq, ps, []float64{pk}))

		gu, pu := make([]float64, 4), make([]float64, 4)
		f, k, c = HeatGrad(q0, gu, 0.9, 2, n)
		g, pk, pc = HeatPlainGrad(q0, pu, 0.9, 2, n)
		same(t, "Heat", n, f, g, append(gu, k, c), append(pu, pk, pc))
	}
}

// TestPendulumsState checks that PendulumsGrad, whose reverse sweep rolls
// x and v back and forth, leaves in them what Pendulums leaves, and the
// gradient of the plain reversal.
func TestPendulumsState(t *testing.T) {
	for _, n := range steps {
		x, v := []float64{0.3, -1.2, 2}, []float64{0.5, 0, -0.1}
		wx, wv := slices.Clone(x), slices.Clone(v)
		px, pv := slices.Clone(x), slices.Clone(v)
		gx, gv := make([]float64, 3), make([]float64, 3)
		hx, hv := make([]float64, 3), make([]float64, 3)
		want := Pendulums(wx, wv, n)
		f := PendulumsGrad(x, gx, v, gv, n)
		g := PendulumsPlainGrad(px, hx, pv, hv, n)
		if f != want {
			t.Errorf("%d steps: PendulumsGrad = %v, Pendulums %v", n, f, want)
		}
		same(t, "Pendulums", n, f, g, append(gx, gv...), append(hx, hv...))
		fdcheck.Close(t, "x after", x, wx, 0)
		fdcheck.Close(t, "v after", v, wv, 0)
	}
}
