package peers

import (
	"math"
	"testing"
	"time"
)

var sinkBytes []byte

func TestMeasure(t *testing.T) {
	calls := 0
	f := func() {
		calls++
		sinkBytes = make([]byte, 4096)
		time.Sleep(50 * time.Microsecond)
	}
	m := Measure(f, 2*time.Millisecond, 3)
	if m.Calls < 1 || m.PerCall < 50*time.Microsecond {
		t.Errorf("%+v: a call sleeps 50µs", m)
	}
	if m.Bytes < 4096 || m.Bytes > 8192 || m.Allocs < 1 {
		t.Errorf("%+v: a call allocates 4 KiB once", m)
	}
	if calls < 1+3*m.Calls {
		t.Errorf("%d calls, want at least a warm-up and 3 samples of %d", calls, m.Calls)
	}
}

// TestSelfTimer: a self-timed function's time is what its runN reports,
// whatever the calls take in Go, and its allocation is not measured.
func TestSelfTimer(t *testing.T) {
	runs := 0
	f := func() {}
	runN := func(n int) time.Duration {
		runs++
		return time.Duration(n) * time.Millisecond
	}
	tm := NewSelfTimer(f, runN, 10*time.Millisecond)
	tm.Sample()
	m := tm.Timing()
	if m.PerCall != time.Millisecond || m.Calls < 10 {
		t.Errorf("%+v: want 1ms per call, at least 10 calls per sample", m)
	}
	if !math.IsNaN(m.Bytes) || !math.IsNaN(m.Allocs) {
		t.Errorf("%+v: allocation measured for a self-timed function", m)
	}
	if runs < 2 {
		t.Errorf("%d runs, want calibration and a sample", runs)
	}
}
