package difftest

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// tensorSample is the CI sample of tensor programs: its seed, chosen so
// that its programs use every construct of tensorCovered, and its size.
const (
	tensorSampleSeed = 58
	tensorSampleN    = 14
)

// tensorCovered are the constructs that the sample must check in jvp
// (each in at least one program): what users write around the
// operations (issue 23).
var tensorCovered = []string{"concat-literal3", "concat-spread-literal", "concat-heads", "helper-slice-spread",
	"helper-slice-range", "variadic-literal", "variadic-spread", "acc-nil", "struct-layer", "struct-stack", "state-step", "model-method", "conv",
	"model-ptr", "model-value", "recv-ptr", "recv-value"}

// TestTensorSample checks a sample of generated tensor programs: no
// wrong derivative, no refusal of supported constructs (TensorSupported),
// every mode checked, every construct of tensorCovered checked.
func TestTensorSample(t *testing.T) {
	// -short leaves out running gadgen and the go command; CI runs it.
	if testing.Short() {
		t.Skip("short")
	}
	n, seed := tensorSampleN, uint64(tensorSampleSeed)
	if *flagN > 0 {
		n, seed = *flagN, *flagSeed
	}
	rc := &RunConfig{Config: Config{Points: 1}, N: n, Seed: seed, BatchSize: 100}
	if *flagWeights != "" {
		w, err := DefaultTensorWeights().With(strings.Split(*flagWeights, ",")...)
		if err != nil {
			t.Fatal(err)
		}
		rc.Weights = w
	}
	if *flagShrink {
		rc.Shrink, rc.KnownDir, rc.ShrinkBudget = true, "testdata/known-tensor", 10*time.Minute
	}
	s, written, err := RunTensors(rc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	s.Write(&b)
	t.Log("\n" + b.String())
	for _, path := range written {
		t.Logf("wrote %s", path)
	}
	for _, o := range s.Failures {
		t.Errorf("%v", o)
	}
	for _, o := range s.Unexpected {
		t.Errorf("%s %s: refused, though the README says each of its constructs is supported in this mode (%s): %s",
			o.Program.Name, o.Mode, strings.Join(o.Program.Features, " "), o.Detail)
	}
	if *flagN > 0 {
		return
	}
	for _, m := range []string{ModeJVP, ModeGrad, TModeJVPNil} {
		if c := s.Modes[m]; c == nil || c.Pass < n/2 {
			t.Errorf("mode %s checked on fewer than %d programs", m, n/2)
		}
	}
	// The rarer modes (one varied tensor for the second-order ones, a
	// shadow argument for gradacc): checked at all.
	for _, m := range []string{ModeTaylor, TModeTaylorNil, ModeTaylorLanes, ModeHVP, ModeHVPLanes, ModeHessian,
		ModeHessDiag, ModeLaplacian, TModeGradAcc} {
		if c := s.Modes[m]; c == nil || c.Pass == 0 {
			t.Errorf("mode %s checked on no program", m)
		}
	}
	for _, f := range tensorCovered {
		if c := s.Features[f][ModeJVP]; c == nil || c.Pass == 0 {
			t.Errorf("construct %s checked in jvp on no program of the sample", f)
		}
	}
}

// TestTensorSupported: TensorSupported names every construct of the
// generator, with modes of its directives.
func TestTensorSupported(t *testing.T) {
	seen := map[string]bool{}
	for i := range 2000 {
		for _, f := range GenerateTensor(1+uint64(i%4), i).Features {
			seen[f] = true
		}
	}
	for f := range seen {
		if _, ok := TensorSupported[f]; !ok {
			t.Errorf("construct %s: not in TensorSupported", f)
		}
	}
	for f, modes := range TensorSupported {
		if !seen[f] {
			t.Errorf("TensorSupported lists %s, which 2000 programs do not use", f)
		}
		for _, m := range modes {
			if !slices.Contains(TensorDirModes, m) {
				t.Errorf("TensorSupported: %s in mode %s, not a tensor mode", f, m)
			}
		}
	}
}

// TestTensorConstructs: every construct of DefaultTensorWeights is
// generated, and one switched off is not.
func TestTensorConstructs(t *testing.T) {
	seen := map[string]int{}
	for i := range 400 {
		for _, f := range GenerateTensor(2, i).Features {
			seen[f]++
		}
	}
	for c := range DefaultTensorWeights() {
		if seen[c] == 0 && !slices.Contains([]string{"unary", "reduce", "loop"}, c) {
			t.Errorf("construct %s: in none of 400 programs", c)
		}
	}
	off, err := DefaultTensorWeights().With("concat-heads=0", "acc-nil=0", "model=0")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		p := GenerateTensorWith(2, i, off)
		for _, f := range p.Features {
			if f == "concat-heads" || f == "acc-nil-weights" || f == "model" {
				t.Fatalf("program %d uses %s, switched off:\n%s", i, f, p.Src)
			}
		}
	}
}

// TestTensorRegress checks the cases of testdata/regress-tensor: each
// must pass, in every mode the harness runs it in (a skipped mode fails).
func TestTensorRegress(t *testing.T) {
	testTensorCases(t, "testdata/regress-tensor", true)
}

// TestTensorKnown checks the cases of testdata/known-tensor (known
// bugs) with -difftest.known and says which pass now.
func TestTensorKnown(t *testing.T) {
	// The known bugs fail by definition: only on request (-difftest.known),
	// which CI never makes; TestTensorRegress is the must-pass suite.
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
		if must {
			// A must-pass suite that finds nothing has lost its cases.
			t.Fatalf("%s holds no cases", dir)
		}
		// testdata/known-tensor may be empty: no known bug is a good state.
		t.Skip("no cases")
	}
	outs, err := RunTensorBatch(&Config{Points: 2}, progs)
	if err != nil {
		t.Fatal(err)
	}
	failing := map[*Program]bool{}
	checked := map[*Program]bool{}
	for _, o := range outs {
		checked[o.Program] = true
		switch {
		case must && o.Status != Pass:
			// A skipped mode (outputs not finite, no check) leaves the
			// regression unchecked there: a failure too.
			t.Errorf("%v", o)
		case o.Status == Fail || o.Status == Tester || o.Status == Refused:
			failing[o.Program] = true
			t.Logf("still fails: %s", strings.SplitN(o.String(), "\n", 2)[0])
		}
	}
	for _, p := range progs {
		switch {
		case !checked[p]:
			t.Errorf("%s: no outcome", p.Name)
		case !must && !failing[p]:
			t.Logf("passes now, move it to %s: %s", strings.Replace(dir, "known", "regress", 1), p.Name)
		}
	}
}
