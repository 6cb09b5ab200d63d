package peers

import (
	"math"
	"runtime"
	"time"
)

// A Timing is the time and the heap allocation of one call.
type Timing struct {
	PerCall time.Duration // minimum over the samples
	Bytes   float64       // bytes allocated per call; NaN when not measured
	Allocs  float64       // heap allocations per call; NaN when not measured
	Calls   int           // calls per sample
}

// A Timer times one function by samples: each sample is a run of the same
// number of calls, and the fastest sample is kept. Several timers can take
// their samples in turn, so that a burst of load on the machine slows one
// sample of each rather than all the samples of one.
type Timer struct {
	f    func()
	runN func(n int) time.Duration // n calls of f, timed
	self bool                      // runN is timed outside the Go process
	n    int                       // calls per sample
	best time.Duration
}

// NewTimer calls f once to warm up, then finds a number of calls whose run
// lasts at least sample; that run is the timer's first sample.
func NewTimer(f func(), sample time.Duration) *Timer {
	return newTimer(&Timer{f: f, runN: func(n int) time.Duration { return run(f, n) }}, sample)
}

// NewSelfTimer is NewTimer for a function that another process runs and
// times (see SelfTimed): runN(n) makes n calls of f and returns their
// time as that process measured it. Its Timing has no heap allocation
// (Bytes and Allocs are NaN): the Go heap does not hold that process's
// memory.
func NewSelfTimer(f func(), runN func(n int) time.Duration, sample time.Duration) *Timer {
	return newTimer(&Timer{f: f, runN: runN, self: true}, sample)
}

func newTimer(t *Timer, sample time.Duration) *Timer {
	t.f()
	t.n = 1
	for {
		d := t.runN(t.n)
		if d >= sample {
			t.best = d
			return t
		}
		// Aim 20% past the sample, at most 100 times more calls.
		next := int(float64(t.n) * 1.2 * float64(sample) / float64(max(d, 1)))
		t.n = min(max(next, t.n+1), 100*t.n)
	}
}

// Sample times one more run, after one untimed call: other timers may have
// run since this one's last sample, and the call brings back what they
// pushed out (caches, and the buffer pools that garbage collections
// emptied).
func (t *Timer) Sample() {
	t.f()
	t.best = min(t.best, t.runN(t.n))
}

// Timing returns the fastest sample per call, and the allocation per call
// counted over one more run (runtime.MemStats, outside the timed runs),
// after one untimed call as in Sample.
func (t *Timer) Timing() Timing {
	if t.self {
		return Timing{PerCall: t.best / time.Duration(t.n), Bytes: math.NaN(), Allocs: math.NaN(), Calls: t.n}
	}
	var before, after runtime.MemStats
	t.f()
	runtime.ReadMemStats(&before)
	run(t.f, t.n)
	runtime.ReadMemStats(&after)
	return Timing{
		PerCall: t.best / time.Duration(t.n),
		Bytes:   float64(after.TotalAlloc-before.TotalAlloc) / float64(t.n),
		Allocs:  float64(after.Mallocs-before.Mallocs) / float64(t.n),
		Calls:   t.n,
	}
}

// Measure times f alone: NewTimer's sample and count−1 more; it reports
// the fastest.
func Measure(f func(), sample time.Duration, count int) Timing {
	t := NewTimer(f, sample)
	for range count - 1 {
		t.Sample()
	}
	return t.Timing()
}

func run(f func(), n int) time.Duration {
	start := time.Now()
	for range n {
		f()
	}
	return time.Since(start)
}
