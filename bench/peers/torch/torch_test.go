package torch

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gadgen/gadgen/bench/peers"
)

// TestUnavailable runs without PyTorch: an interpreter that cannot be
// started makes Setup fail with ErrUnsupported, saying which.
func TestUnavailable(t *testing.T) {
	defer func(p string) { Python = p }(Python)
	Python = filepath.Join(t.TempDir(), "no-python")
	c := &contender{dtype: peers.Float64}
	err := c.Setup(peers.NewProblem(peers.Small, 1))
	if !errors.Is(err, peers.ErrUnsupported) || !strings.Contains(err.Error(), "no-python") {
		t.Errorf("got %v, want ErrUnsupported naming the interpreter", err)
	}
	if c.Name() != "PyTorch" {
		t.Errorf("name %q, want PyTorch", c.Name())
	}
}

// TestPyTorch checks the contender against the reference in both dtypes
// and its self-timing, where PyTorch is installed, and logs the round trip
// to the worker.
func TestPyTorch(t *testing.T) {
	p := peers.NewProblem(peers.Small, 1)
	refLoss, ref := peers.Reference(p)
	for _, d := range peers.DTypes {
		c := &contender{dtype: d}
		// PyTorch is an optional peer: CI installs none and never runs this; it
		// runs where torch imports. Any other error of Setup fails.
		if err := c.Setup(p); errors.Is(err, peers.ErrUnsupported) {
			t.Skipf("PyTorch is an optional peer, not usable here: %v", err)
		} else if err != nil {
			t.Fatal(err)
		}
		r, err := peers.Check(c, d, refLoss, ref)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s: loss %.1e, gradient %.1e (%s)", c.Name(), d, r.Diff.Loss, r.Diff.Grad, r.Diff.Worst)
		if tm := peers.NewSelfTimer(func() { c.Grad() }, c.TimeGrad, time.Millisecond).Timing(); tm.PerCall <= 0 || tm.Calls < 1 {
			t.Errorf("%s: self-timed gradient %+v", d, tm)
		}
	}
	rt, err := RoundTrip()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("round trip to the worker: %v", rt)
}
