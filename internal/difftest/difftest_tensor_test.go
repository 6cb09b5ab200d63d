package difftest

import (
	"strings"
	"testing"
)

// TestTensorSample checks a sample of generated tensor programs.
func TestTensorSample(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	n, seed := 24, uint64(1)
	if *flagN > 0 {
		n, seed = *flagN, *flagSeed
	}
	rc := &RunConfig{Config: Config{Points: 1}, N: n, Seed: seed, BatchSize: 100}
	s, err := RunTensors(rc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	s.Write(&b)
	t.Log("\n" + b.String())
	for _, o := range s.Failures {
		t.Errorf("%v", o)
	}
	for _, m := range []string{ModeJVP, ModeGrad} {
		if c := s.Modes[m]; c == nil || c.Pass < n/2 {
			t.Errorf("mode %s checked on fewer than %d programs", m, n/2)
		}
	}
	// The rarer modes (one varied tensor for the HVP and the Hessian):
	// checked at all.
	for _, m := range []string{ModeTaylor, ModeTaylorLanes, ModeHVP, ModeHVPLanes, ModeHessian} {
		if c := s.Modes[m]; c == nil || c.Pass == 0 {
			t.Errorf("mode %s checked on no program", m)
		}
	}
}

// TestTensorRegress checks the cases of testdata/regress-tensor: each
// must pass.
func TestTensorRegress(t *testing.T) {
	testTensorCases(t, "testdata/regress-tensor", true)
}

// TestTensorKnown checks the cases of testdata/known-tensor (known
// bugs) with -difftest.known and says which pass now.
func TestTensorKnown(t *testing.T) {
	if !*flagKnown {
		t.Skip("-difftest.known not set")
	}
	testTensorCases(t, "testdata/known-tensor", false)
}

func testTensorCases(t *testing.T, dir string, must bool) {
	progs, err := LoadCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) == 0 {
		t.Skip("no cases")
	}
	outs, err := RunTensorBatch(&Config{Points: 2}, progs)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		switch {
		case o.Status == Fail || o.Status == Tester:
			if must {
				t.Errorf("%v", o)
			} else {
				t.Logf("still fails: %s", strings.SplitN(o.String(), "\n", 2)[0])
			}
		case !must && o.Status == Pass:
			t.Logf("passes now: %s %s", o.Program.Name, o.Mode)
		}
	}
}
