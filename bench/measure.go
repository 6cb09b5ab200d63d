package bench

// This file times a problem's functions (repeated into samples of at least
// Sampling.Sample, interleaved, the minimum of Sampling.Count samples) and
// counts the memory they allocate per call.

import (
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/diff/fd"
)

// Sampling says how long and how often to time.
type Sampling struct {
	// Sample is the shortest time of one sample: a function is called
	// repeatedly until a sample lasts at least this long.
	Sample time.Duration
	// Count is the number of samples of each function; the minimum is
	// kept.
	Count int
}

// DefaultSampling is the method of README.md: samples of at least 200 ms,
// the minimum of 5.
var DefaultSampling = Sampling{Sample: 200 * time.Millisecond, Count: 5}

// QuickSampling is for smoke runs: short samples, still 5 of them.
var QuickSampling = Sampling{Sample: 2 * time.Millisecond, Count: 5}

// A Measurement is the time and the memory per call of a problem's
// function and derivatives.
type Measurement struct {
	Primal time.Duration
	Deriv  map[Kind]time.Duration
	// PrimalMem and Mem are the heap allocations per call.
	PrimalMem Alloc
	Mem       map[Kind]Alloc
}

// Alloc is what one call allocates on the heap.
type Alloc struct {
	Bytes  float64 // bytes allocated
	Allocs float64 // number of allocations
}

// Ratio returns the time of kind k over the time of the function, and
// whether k was timed.
func (m Measurement) Ratio(k Kind) (float64, bool) {
	d, ok := m.Deriv[k]
	if !ok || m.Primal <= 0 {
		return 0, false
	}
	return float64(d) / float64(m.Primal), true
}

// MemRatio returns the bytes that kind k allocates per call over the
// function's, and whether both were measured and the function allocates.
func (m Measurement) MemRatio(k Kind) (float64, bool) {
	a, ok := m.Mem[k]
	if !ok || m.PrimalMem.Bytes <= 0 {
		return 0, false
	}
	return a.Bytes / m.PrimalMem.Bytes, true
}

// sink keeps the results of timed calls alive.
var sink float64

// calls returns, for the function and each derivative of p (in the order
// of Kinds), a closure making one call on buffers allocated here.
func calls(p *Problem) (primal func(), kinds []Kind, derivs []func()) {
	x := p.X
	primal = func() { sink = p.F(x) }
	for _, k := range Kinds {
		if !p.has(k) {
			continue
		}
		var call func()
		switch k {
		case JVP, JVPO0:
			v := direction(rand.New(rand.NewPCG(uint64(len(x)), 12)), len(x))
			jvp := p.JVP
			if k == JVPO0 {
				jvp = p.JVPO0
			}
			call = func() {
				y, dy := jvp(x, v)
				sink = y + dy
			}
		case HVP:
			v := direction(rand.New(rand.NewPCG(uint64(len(x)), 12)), len(x))
			hv := make([]float64, len(x))
			call = func() { sink = p.HVP(x, v, hv) }
		case Grad, Hand, GradO0:
			// The gradient accumulates into dx across calls; its values
			// do not matter here, and the caller of a reverse-mode
			// derivative zeroes dx only when it needs to.
			grad := map[Kind]func(x, dx []float64) float64{Grad: p.Grad, Hand: p.Hand, GradO0: p.GradO0}[k]
			dx := make([]float64, len(x))
			call = func() { sink = grad(x, dx) }
		case FD:
			dst := make([]float64, len(x))
			call = func() {
				fd.Gradient(dst, p.F, x, &fd.Settings{Formula: fd.Central})
				sink = dst[0]
			}
		}
		kinds = append(kinds, k)
		derivs = append(derivs, call)
	}
	return primal, kinds, derivs
}

// Measure times the function and every derivative of p, and counts what
// each allocates per call (it does not verify them: see Verify).
func Measure(p *Problem, s Sampling) Measurement {
	primal, kinds, derivs := calls(p)
	best, mem := measure(append([]func(){primal}, derivs...), s)
	m := Measurement{Primal: best[0], Deriv: make(map[Kind]time.Duration),
		PrimalMem: mem[0], Mem: make(map[Kind]Alloc)}
	for i, k := range kinds {
		m.Deriv[k] = best[i+1]
		m.Mem[k] = mem[i+1]
	}
	return m
}

// measure returns the minimum time per call of each function over s.Count
// samples, and the memory each allocates per call. Each function gets its
// own repetition count, calibrated so that a sample takes at least
// s.Sample; the samples of the functions are interleaved, in a rotating
// order, so that drifts of the machine's speed affect all of them alike.
// The memory is counted after the timing, over at most 10 calls.
func measure(fns []func(), s Sampling) ([]time.Duration, []Alloc) {
	reps := make([]int, len(fns))
	for i, f := range fns {
		reps[i] = calibrate(f, s.Sample)
	}
	best := make([]time.Duration, len(fns))
	for r := range max(s.Count, 1) {
		for j := range fns {
			i := (j + r) % len(fns)
			runtime.GC()
			d := run(fns[i], reps[i]) / time.Duration(reps[i])
			if r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	mem := make([]Alloc, len(fns))
	for i, f := range fns {
		mem[i] = Allocs(f, min(reps[i], 10))
	}
	return best, mem
}

// Allocs returns the heap allocations per call of f over n calls, from the
// runtime's counters (runtime.MemStats.TotalAlloc and Mallocs), as
// testing.B's ReportAllocs counts them.
func Allocs(f func(), n int) Alloc {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return Alloc{
		Bytes:  float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
		Allocs: float64(after.Mallocs-before.Mallocs) / float64(n),
	}
}

// calibrate returns a number of calls of f that takes at least d.
func calibrate(f func(), d time.Duration) int {
	n := 1
	for {
		t := run(f, n)
		if t >= d {
			return n
		}
		// Aim 20% over d, growing at most 100-fold per try.
		next := int(1.2 * float64(n) * float64(d) / float64(max(t, 1)))
		n = max(n+1, min(next, 100*n))
	}
}

// run returns the time of n calls of f.
func run(f func(), n int) time.Duration {
	start := time.Now()
	for range n {
		f()
	}
	return time.Since(start)
}
