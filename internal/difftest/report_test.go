package difftest

import (
	"slices"
	"strings"
	"testing"
)

// TestSummaryRefusals: the refusal rate per mode, the refused outcomes
// and, for tensor constructs, which refusals are of supported ones.
func TestSummaryRefusals(t *testing.T) {
	p := &Program{Name: "a", Features: []string{"tanh", "concat-heads"}}
	q := &Program{Name: "b", Features: []string{"tanh", "not-a-construct"}}
	s := &Summary{ModeList: TensorModes, Base: TModeValue}
	s.Add([]Outcome{
		{Program: p, Mode: ModeJVP, Status: Pass},
		{Program: q, Mode: ModeJVP, Status: Pass},
		{Program: p, Mode: ModeGrad, Status: Refused, Kind: "call of cat: no"},
		{Program: q, Mode: ModeGrad, Status: Pass},
		{Program: q, Mode: TModeGradAcc, Status: Refused, Kind: "x: no"},
	})
	if got := s.Modes[ModeGrad].RefusalRate(); got != 50 {
		t.Errorf("grad's refusal rate %v, want 50", got)
	}
	if got := s.Modes[ModeJVP].RefusalRate(); got != 0 {
		t.Errorf("jvp's refusal rate %v, want 0", got)
	}
	if len(s.Refused) != 2 {
		t.Errorf("%d refused outcomes, want 2", len(s.Refused))
	}
	if got := Unsupported(p.Features, ModeGrad); len(got) != 0 {
		t.Errorf("Unsupported(%v, grad) = %v, want none", p.Features, got)
	}
	if got := Unsupported(q.Features, TModeGradAcc); !slices.Equal(got, []string{"not-a-construct"}) {
		t.Errorf("Unsupported(%v, gradacc) = %v, want [not-a-construct]", q.Features, got)
	}
	var b strings.Builder
	s.Write(&b)
	for _, want := range []string{"refused %", "50.0", "call of cat: no"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary has no %q:\n%s", want, b.String())
		}
	}
}

// TestGenericName: the refusals of one reason count together across
// programs.
func TestGenericName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"call of rev.state120.step120", "call of stateN.stepN"},
		{"call of rev.newState7_3", "call of newStateN"},
		{"reverse mode cannot store []float64 at /tmp/x/rev/s1p2.go:12:3", "reverse mode cannot store []float64 at FILE"},
		{"parameter x2 of F2: int64 and float32", "parameter xN of FN: int64 and float32"},
	} {
		if got := genericName(c.in); got != c.want {
			t.Errorf("genericName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	p := &Program{Name: "a"}
	s := &Summary{}
	s.Add([]Outcome{
		{Program: p, Mode: ModeGrad, Status: Refused, Kind: "call of rev.state1.step1", Detail: "no slices"},
		{Program: p, Mode: ModeGrad, Status: Refused, Kind: "call of rev.state2.step2", Detail: "no slices"},
	})
	if got := s.Reasons["call of stateN.stepN: no slices"][ModeGrad]; got != 2 {
		t.Errorf("refusals of one reason: got %d, want 2 (%v)", got, s.Reasons)
	}
}
