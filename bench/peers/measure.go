package peers

import (
	"runtime"
	"time"
)

// A Timing is the time and the heap allocation of one call.
type Timing struct {
	PerCall time.Duration // minimum over the samples
	Bytes   float64       // bytes allocated per call
	Allocs  float64       // heap allocations per call
	Calls   int           // calls per sample
}

// Measure times f: after one warm-up call, it finds a number of calls n
// whose run lasts at least sample, then times count runs of n calls and
// keeps the fastest. The allocation is counted over one more run of n
// calls (runtime.MemStats, outside the timed runs).
func Measure(f func(), sample time.Duration, count int) Timing {
	f()
	n := 1
	for {
		d := run(f, n)
		if d >= sample {
			break
		}
		// Aim 20% past the sample, at most 100 times more calls.
		next := int(float64(n) * 1.2 * float64(sample) / float64(max(d, 1)))
		n = min(max(next, n+1), 100*n)
	}
	best := time.Duration(1<<63 - 1)
	for range max(count, 1) {
		best = min(best, run(f, n))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run(f, n)
	runtime.ReadMemStats(&after)
	return Timing{
		PerCall: best / time.Duration(n),
		Bytes:   float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
		Allocs:  float64(after.Mallocs-before.Mallocs) / float64(n),
		Calls:   n,
	}
}

func run(f func(), n int) time.Duration {
	start := time.Now()
	for range n {
		f()
	}
	return time.Since(start)
}
