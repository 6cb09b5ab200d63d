package difftest

import (
	"testing"
)

// TestRunBatchOutcomes: a batch gives every mode of every entry an
// outcome, tells refusals (with gadgen's construct) from failures, and
// reports a program the twin cannot express as the tester's problem.
func TestRunBatchOutcomes(t *testing.T) {
	// -short leaves out running gadgen and the go command; CI runs it.
	if testing.Short() {
		t.Skip("runs gadgen and the go command: not in -short")
	}
	progs := []*Program{
		{Name: "plain", Src: []byte(`package p

//difftest:modes jvp grad
func F(x []float64, a float64) float64 {
	s := 0.0
	for _, v := range x {
		s += a * v * v
	}
	return s
}
`)},
		{Name: "map", Src: []byte(`package p

//difftest:modes jvp grad taylor
func F(x []float64, a float64) float64 {
	m := map[int]float64{0: a}
	return m[0] * x[0]
}
`)},
		{Name: "gamma", Src: []byte(`package p

import "math"

func G(a float64) float64 { return math.Gamma(2 + a*a) }
`)},
	}
	outs, err := RunBatch(&Config{}, progs)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ prog, mode string }
	got := map[key]Outcome{}
	for _, o := range outs {
		got[key{o.Program.Name, o.Mode}] = o
	}
	want := []struct {
		prog, mode string
		st         Status
		kind       string
	}{
		{"plain", "twin", Pass, ""},
		{"plain", ModeJVP, Pass, ""},
		{"plain", ModeGrad, Pass, ""},
		{"map", ModeJVP, Refused, "map"},
		{"map", ModeGrad, Refused, "map"},
		{"map", ModeTaylor, Refused, "map"},
		{"map", "twin", Pass, ""},
		{"gamma", "twin", Tester, "twin"},
	}
	for _, w := range want {
		o, ok := got[key{w.prog, w.mode}]
		if !ok || o.Status != w.st || o.Kind != w.kind {
			t.Errorf("%s %s: got %v, want %v %s", w.prog, w.mode, o, w.st, w.kind)
		}
	}
	if len(outs) != len(want) {
		t.Errorf("got %d outcomes, want %d: %v", len(outs), len(want), outs)
	}
}
