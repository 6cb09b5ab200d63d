// Command table times bench/tensormodels' four models — the forward loss,
// the gradient gadgen generates and the hand-written backpropagation — on
// one thread (GOMAXPROCS=1, one OpenBLAS thread), and prints the Markdown
// table of bench/README.md's section "Tensor models with helpers (issue
// 25)", with suite S5 (bench/tensormlp) as a reference row:
//
//	go run ./bench/tensormodels/cmd/table
//
// Each time is the least over -runs samples, each sample as many calls
// as last at least -min; the samples of all functions are interleaved in
// a rotating order. Times are the process's CPU time (user and system,
// getrusage), not wall time: on a machine shared with other work the wall
// time of a sample includes the time other processes took the core (2×
// swings were seen), the CPU time does not; with one thread it includes
// the garbage collector's work, which is part of a call's cost. -clock
// wall measures wall time instead. Bytes per call are the runtime's
// TotalAlloc over 10 calls. Before timing, it checks that each gradient
// returns the loss.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/gadgen/gadgen/bench"
	"github.com/gadgen/gadgen/bench/tensormlp"
	"github.com/gadgen/gadgen/bench/tensormodels"
	"github.com/gadgen/gadgen/tensorops"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("runs", 7, "samples of each function; each time is the least")
	least := fs.Duration("min", 200*time.Millisecond, "least time of one sample (calls are repeated up to it)")
	blas := fs.String("blas", "", "BLAS backend (openblas or gonum; default: tensorops' choice)")
	clock := fs.String("clock", "cpu", "what to time: the process's CPU time (cpu) or wall time (wall)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	now := cpuTime
	switch *clock {
	case "cpu":
	case "wall":
		start := time.Now()
		now = func() time.Duration { return time.Since(start) }
	default:
		fmt.Fprintf(stderr, "table: -clock %q: want cpu or wall\n", *clock)
		return 2
	}
	runtime.GOMAXPROCS(1)
	tensorops.SetThreads(1)
	if *blas != "" {
		if err := tensorops.SetBLAS(*blas); err != nil {
			fmt.Fprintln(stderr, "table:", err)
			return 1
		}
	}
	cases := append(tensormodels.Cases(false, 1), s5())
	var fns []func()
	for _, c := range cases {
		g, h := tensormodels.ZerosLike(c.Params), tensormodels.ZerosLike(c.Params)
		l := c.Loss(c.Params)
		if fg, fh := c.Grad(g), c.Hand(h); math.Abs(fg-l) > 1e-12*math.Abs(l) || math.Abs(fh-l) > 1e-12*math.Abs(l) {
			fmt.Fprintf(stderr, "table: %s: loss %v, generated gradient's value %v, hand-written %v\n", c.Name, l, fg, fh)
			return 1
		}
		// The gradients accumulate into g and h across calls, as a
		// caller who zeroes them only when needed does.
		fns = append(fns, func() { c.Loss(c.Params) }, func() { c.Grad(g) }, func() { c.Hand(h) })
	}
	times := measure(fns, now, *runs, *least)
	mem := make([]float64, len(fns))
	for i, f := range fns {
		mem[i] = bench.Allocs(f, 10).Bytes
	}
	fmt.Fprintf(stdout, "One thread (GOMAXPROCS=1, BLAS %s), %s/%s; %s time, the least of %d samples of ≥ %v, interleaved; bytes allocated per call.\n\n",
		tensorops.BLAS(), runtime.GOOS, runtime.GOARCH, *clock, *runs, *least)
	fmt.Fprintln(stdout, "| model | size | forward | gradient (gadgen) | ÷ forward | hand-written | ÷ forward | bytes: forward | gradient (÷ forward) | hand-written (÷ forward) |")
	fmt.Fprintln(stdout, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for i, c := range cases {
		f, g, h := times[3*i], times[3*i+1], times[3*i+2]
		bf, bg, bh := mem[3*i], mem[3*i+1], mem[3*i+2]
		fmt.Fprintf(stdout, "| %s | %s | %s | %s | %.2f | %s | %.2f | %s | %s (%.2f) | %s (%.2f) |\n", c.Name, c.Size,
			ms(f), ms(g), float64(g)/float64(f), ms(h), float64(h)/float64(f), mb(bf), mb(bg), bg/bf, mb(bh), bh/bf)
	}
	return 0
}

// measure returns the least time per call of each of fns, by the clock
// now, over runs samples; each function's calls per sample are set first
// so that a sample lasts at least least, and the samples go round the
// functions in a rotating order, after a garbage collection each.
func measure(fns []func(), now func() time.Duration, runs int, least time.Duration) []time.Duration {
	sample := func(f func(), n int) time.Duration {
		runtime.GC()
		start := now()
		for range n {
			f()
		}
		return now() - start
	}
	reps := make([]int, len(fns))
	for i, f := range fns {
		reps[i] = 1
		for d := sample(f, 1); d < least; d = sample(f, reps[i]) {
			reps[i] = max(reps[i]+1, min(int(1.2*float64(reps[i])*float64(least)/float64(max(d, 1))), 100*reps[i]))
		}
	}
	best := make([]time.Duration, len(fns))
	for r := range max(runs, 1) {
		for j := range fns {
			i := (j + r) % len(fns)
			if d := sample(fns[i], reps[i]) / time.Duration(reps[i]); r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	return best
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// s5 returns suite S5's perceptron (bench/tensormlp: the same layers as
// the first case, written without a helper) as a case, for reference.
func s5() tensormodels.Case {
	m, x, y := tensormlp.New(tensorops.Float64, tensormlp.In, tensormlp.Hidden, tensormlp.Out, tensormlp.Batch, 1)
	of := func(ps []*tensorops.Tensor) *tensormlp.MLP {
		return &tensormlp.MLP{W1: ps[0], B1: ps[1], W2: ps[2], B2: ps[3], W3: ps[4], B3: ps[5]}
	}
	return tensormodels.Case{
		Name: "S5 (bench/tensormlp, no helper), for reference", Size: "784-256-256-10, batch 128",
		Params: m.Tensors(),
		Loss:   func(ps []*tensorops.Tensor) float64 { return tensormlp.Loss(of(ps), x, y) },
		Grad:   func(g []*tensorops.Tensor) float64 { return tensormlp.LossGrad(m, of(g), x, y) },
		Hand:   func(g []*tensorops.Tensor) float64 { return tensormlp.HandGrad(m, of(g), x, y) },
	}
}

// ms formats d in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.3g ms", float64(d)/1e6) }

// mb formats bytes in megabytes.
func mb(b float64) string { return fmt.Sprintf("%.3g MB", b/1e6) }
