package peers

import (
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
