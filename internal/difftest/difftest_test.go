package difftest

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"
)

var (
	flagN       = flag.Int("difftest.n", 0, "check `n` generated programs (a long run) instead of the CI sample, and print the summary")
	flagSeed    = flag.Uint64("difftest.seed", 1, "seed of the long run")
	flagWeights = flag.String("difftest.weights", "", "comma-separated `name=weight` changes of the generator's weights")
	flagAll     = flag.Bool("difftest.all", false, "long run: check the modes that the known bugs leave out in CI")
	flagShrink  = flag.Bool("difftest.shrink", false, "long run: minimize failures into testdata/known")
	flagKnown   = flag.Bool("difftest.known", false, "check the cases of testdata/known (the known bugs) and say which pass now")
)

// The switches of the constructs with bugs that this tester found and
// that are not fixed yet (their minimized cases go in testdata/known):
// the CI sample leaves them out; long runs with -difftest.all check
// them. None today.
var knownBugWeights []string

// knownBugs leaves modes out for programs that use a construct, for bugs
// of some modes only (see knownBugWeights). None today.
var knownBugs = map[string][]string{}

// sampleSize is the number of programs of the CI sample.
const sampleSize = 200

// sampleSecond is the percentage of the sample's eligible entries that
// get the second-order helpers: they double the time of gadgen and go vet
// on a program (the Laplacian's 8-lane jets, the gradient's JVP).
const sampleSecond = "second=30"

// sampleLanes is the percentage of the sample's entries that get the
// jets with lanes (each one more Taylor-mode function for gadgen and go
// vet).
const sampleLanes = "lanes=25"

// sampleState is the percentage of the sample's programs that step a
// state in place: reverse mode and seed=line refuse them today (see
// genstate.go), which would leave too few programs to those modes.
const sampleState = "state-step=12"

// TestSample checks a sample of generated programs in every mode: no
// derivative may be wrong, crash, hang or fail to compile, and every
// mode must be checked on enough programs.
func TestSample(t *testing.T) {
	// -short leaves out running gadgen and the go command; CI runs it.
	if testing.Short() {
		t.Skip("the sample runs gadgen and the go command: not in -short")
	}
	w, err := DefaultWeights().With(append(knownBugWeights, sampleSecond, sampleLanes, sampleState)...)
	if err != nil {
		t.Fatal(err)
	}
	rc := &RunConfig{N: sampleSize, Seed: 1, BatchSize: sampleSize, Weights: w, Exclude: knownBugs}
	if *flagN > 0 {
		rc.N, rc.Seed, rc.BatchSize = *flagN, *flagSeed, 100
		rc.Log = os.Stderr
		// The sample's cuts are for CI's time and its minimums.
		rc.Weights["second"], rc.Weights["lanes"], rc.Weights["state-step"] = DefaultWeights()["second"], DefaultWeights()["lanes"], DefaultWeights()["state-step"]
		if *flagAll {
			rc.Weights, rc.Exclude = DefaultWeights(), nil
		}
		if *flagShrink {
			rc.Shrink, rc.KnownDir, rc.ShrinkBudget = true, "testdata/known", 10*time.Minute
		}
	}
	if *flagWeights != "" {
		if rc.Weights == nil {
			rc.Weights = DefaultWeights()
		}
		w, err := rc.Weights.With(strings.Split(*flagWeights, ",")...)
		if err != nil {
			t.Fatal(err)
		}
		rc.Weights = w
	}
	s, written, err := Run(rc)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	s.Write(&buf)
	t.Logf("summary:\n%s", buf.String())
	for _, path := range written {
		t.Logf("wrote %s", path)
	}
	for _, o := range s.Failures {
		t.Errorf("%v", o)
	}
	if *flagN > 0 {
		return
	}
	// Each mode checked on enough programs: the tester checks something.
	for _, group := range [][]string{{ModeJVP}, {ModeGrad, ModeVJP}, {ModeTaylor}, {ModeLine}, {ModeTaylorLanes}, {ModeLineLanes},
		{ModeHVP}, {ModeHessDiag}, {ModeLaplacian}, {ModeHessian}} {
		n := 0
		for _, m := range group {
			if c := s.Modes[m]; c != nil {
				n += c.Checked()
			}
		}
		if min := minChecked[group[0]]; n < min {
			t.Errorf("mode %s: %d programs checked, want at least %d", strings.Join(group, "+"), n, min)
		}
	}
}

// minChecked is the number of programs of the sample that each mode
// must check (grad counts vjp too).
var minChecked = map[string]int{ModeJVP: 50, ModeGrad: 50, ModeTaylor: 50, ModeLine: 50,
	ModeTaylorLanes: 15, ModeLineLanes: 15, ModeHVP: 15, ModeHessDiag: 15, ModeLaplacian: 15, ModeHessian: 15}

// TestRegress checks the cases of testdata/regress: each must be checked
// and pass in every mode it names.
func TestRegress(t *testing.T) {
	// -short leaves out running gadgen and the go command; CI runs it.
	if testing.Short() {
		t.Skip("runs gadgen and the go command: not in -short")
	}
	progs, outs := runCases(t, "testdata/regress")
	passed := map[string]bool{}
	for _, o := range outs {
		if o.Status != Pass {
			t.Errorf("%v", o)
		}
		passed[o.Program.Name] = true
		t.Logf("%v (%d checks)", o, o.Checks)
	}
	for _, p := range progs {
		if !passed[p.Name] {
			t.Errorf("%s: no outcome", p.Name)
		}
	}
}

// TestKnown runs the cases of testdata/known, the bugs found and not
// fixed: it reports those that pass now (move them to testdata/regress).
func TestKnown(t *testing.T) {
	// The known bugs fail by definition: only on request (-difftest.known),
	// which CI never makes; TestRegress is the must-pass suite.
	if !*flagKnown {
		t.Skip("the known bugs fail: run with -difftest.known")
	}
	cases, err := LoadCases("testdata/known")
	if err != nil {
		t.Fatal(err)
	}
	// testdata/known may be empty: no known bug is a good state.
	if len(cases) == 0 {
		t.Skip("no known bugs")
	}
	progs, outs := runCases(t, "testdata/known")
	failing := map[string]bool{}
	for _, o := range outs {
		if o.Status != Pass {
			failing[o.Program.Name] = true
			t.Logf("still fails: %v", o)
		}
	}
	for _, p := range progs {
		if !failing[p.Name] {
			t.Logf("passes now, move it to testdata/regress: %s", p.Name)
		}
	}
}

// runCases checks the cases of dir in one batch.
func runCases(t *testing.T, dir string) ([]*Program, []Outcome) {
	t.Helper()
	progs, err := LoadCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) == 0 {
		t.Fatalf("no cases in %s", dir)
	}
	outs, err := RunBatch(&Config{}, progs)
	if err != nil {
		t.Fatal(err)
	}
	return progs, outs
}
