// Command table measures checkpointing in reverse mode on package
// checkpoint's N-body gradient: for the plain gradient, the gradients with
// binomial checkpointing (checkpoint=C copies) and the gradient in S
// segments (each a //gad:checkpoint call), the time of a call against the
// function's and the plain gradient's, and the peak of the heap in use,
// measured in one run with interleaved repetitions, one thread.
//
//	go run ./bench/checkpoint/cmd/table [-steps 100000] [-bodies 5] [-reps 3]
//
// Times are taken with the collector's default setting. The peak is
// measured in a run of its own: the largest live heap the garbage
// collector marked while the call ran (runtime/metrics'
// /gc/heap/live:bytes, sampled every 0.2 ms, GOGC=5 so that it collects
// often, which slows the calls that keep much memory), above the live heap
// before the call: the memory the gradient keeps, not the garbage it
// makes. Bytes allocated are TotalAlloc over one call.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/gadgen/gadgen/bench"
	"github.com/gadgen/gadgen/bench/checkpoint"
)

func main() {
	steps := flag.Int("steps", 100000, "time steps")
	nb := flag.Int("bodies", 5, "bodies")
	reps := flag.Int("reps", 3, "interleaved repetitions (the fastest is kept)")
	flag.Parse()
	runtime.GOMAXPROCS(2) // one for the call, one for the sampler
	m, x0 := checkpoint.Data(*nb)
	g := make([]float64, len(x0))
	type row struct {
		name     string
		segments int
		run      func()
		best     time.Duration
		peak     uint64
		alloc    float64
	}
	rows := []*row{
		{name: "function", run: func() { checkpoint.Plain(m, x0, *steps) }},
		{name: "plain gradient", run: func() { checkpoint.PlainGrad(m, x0, g, *steps) }},
	}
	for _, c := range []struct {
		copies int
		grad   func(m, x0, g []float64, steps int) float64
	}{{10, checkpoint.Checkpoint10Grad}, {32, checkpoint.Checkpoint32Grad}, {100, checkpoint.Checkpoint100Grad},
		{316, checkpoint.Checkpoint316Grad}, {1000, checkpoint.Checkpoint1000Grad}} {
		rows = append(rows, &row{name: fmt.Sprintf("checkpoint=%d", c.copies),
			run: func() { c.grad(m, x0, g, *steps) }})
	}
	for _, s := range []int{10, 32, 100, 316, 1000, 3162} {
		k := (*steps + s - 1) / s
		rows = append(rows, &row{name: fmt.Sprintf("%d segments of %d", s, k), segments: s,
			run: func() { checkpoint.SegmentedGrad(m, x0, g, *steps, k) }})
	}
	for _, r := range rows {
		r.best = time.Duration(math.MaxInt64)
		r.alloc = bench.Allocs(r.run, 1).Bytes
	}
	for range *reps {
		for _, r := range rows {
			runtime.GC()
			start := time.Now()
			r.run()
			r.best = min(r.best, time.Since(start))
		}
	}
	for _, r := range rows {
		_, p := measure(r.run)
		r.peak = p
	}
	state := 4 * 2 * *nb * 8 // four slices of 2n floats
	fmt.Printf("N-body leapfrog, %d bodies, %d steps; state %d B; one thread per call; fastest of %d interleaved runs\n\n", *nb, *steps, state, *reps)
	fmt.Println("| gradient | time (ms) | ÷ function | ÷ plain gradient | peak heap (KB) | peak ÷ state | allocated (KB) | allocated ÷ state |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	f, plain := rows[0].best, rows[1].best
	for _, r := range rows {
		fmt.Printf("| %s | %.1f | %.1f | %.2f | %d | %d | %.0f | %.0f |\n", r.name, r.best.Seconds()*1e3,
			r.best.Seconds()/f.Seconds(), r.best.Seconds()/plain.Seconds(), r.peak>>10, r.peak/uint64(state), r.alloc/1024, r.alloc/float64(state))
	}
	os.Exit(0)
}

// measure runs f once and returns its time and the peak of the heap in use
// above what it was before.
func measure(f func()) (time.Duration, uint64) {
	old := debug.SetGCPercent(5)
	defer debug.SetGCPercent(old)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := live()
	var peak atomic.Uint64
	stop := make(chan bool)
	done := make(chan bool)
	go func() {
		defer close(done)
		for {
			if l := live(); l > peak.Load() {
				peak.Store(l)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	start := time.Now()
	f()
	d := time.Since(start)
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return d, p - base
	}
	return d, 0
}
