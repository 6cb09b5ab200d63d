// Gadbench runs gadgen's benchmark suite and prints Markdown tables.
//
// Usage:
//
//	gadbench [flags]
//
// For each problem of the suites of bench/README.md that package
// github.com/gadgen/gadgen/bench runs (S1–S3, and S4's Hessian-vector
// product) it first verifies every derivative (gadgen's JVP and gradient
// against the hand-written gradient, its HVP against central differences
// of it, the hand-written gradient against central finite differences),
// and stops with status 1 and a message naming the derivative if one is
// wrong. It then times the function and each derivative, interleaved, the
// minimum of 5 samples of at least 200 ms each, and counts the bytes and
// allocations each makes per call. It prints per problem the time of the
// function and each derivative's time as a multiple of it, with a cell
// "not generated yet" (and a line saying what gadgen says about it) for a
// derivative that a suite asks for and gadgen does not generate yet; the
// same rows for the memory (each derivative's bytes as a multiple of the
// function's, and absolute); the geometric means per suite and over
// S1–S3, the ablation (the speedup of gadgen's derivatives over the same
// derivatives generated without optimization, the …O0 functions of each
// package's noopt_grad.go), and the log-log slopes of S3. Progress goes to
// standard error.
//
// The flags are:
//
//	-quick
//		Tiny sizes and 2 ms samples: a smoke run for CI, in seconds.
//	-huge
//		Add the sizes too slow for the default run (S3 at n = 1e5, whose
//		function alone is O(n²)).
//	-run regexp
//		Run only the suites whose ID or name matches (S1a, GMM, ...).
//	-sample d, -count n
//		Override the sample duration and the number of samples.
//	-threads n
//		GOMAXPROCS during the run (default 1).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/gadgen/gadgen/bench"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "tiny sizes and short samples (a smoke run)")
	huge := fs.Bool("huge", false, "add the sizes too slow for the default run")
	suites := fs.String("run", "", "run only the suites whose ID or name matches this regexp")
	sample := fs.Duration("sample", 0, "shortest sample (default 200ms, 2ms with -quick)")
	count := fs.Int("count", 0, "samples per function, the minimum kept (default 5)")
	threads := fs.Int("threads", 1, "GOMAXPROCS during the run")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gadbench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg, err := config(*quick, *huge, *suites, *sample, *count, *threads)
	if err != nil {
		fmt.Fprintf(stderr, "gadbench: %v\n", err)
		return 2
	}
	cfg.Progress = stderr
	rep, err := bench.Run(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "gadbench: %v\n", err)
		return 1
	}
	if err := rep.Markdown(stdout); err != nil {
		fmt.Fprintf(stderr, "gadbench: %v\n", err)
		return 1
	}
	return 0
}

func config(quick, huge bool, suites string, sample time.Duration, count, threads int) (bench.Config, error) {
	cfg := bench.Config{Tiers: bench.FullTiers, Sampling: bench.DefaultSampling, Threads: threads}
	if quick {
		cfg.Tiers = []bench.Tier{bench.Quick}
		cfg.Sampling = bench.QuickSampling
	}
	if huge {
		cfg.Tiers = append(cfg.Tiers, bench.Huge)
	}
	if suites != "" {
		re, err := regexp.Compile(suites)
		if err != nil {
			return cfg, fmt.Errorf("-run: %v", err)
		}
		cfg.Suites = re
	}
	if sample > 0 {
		cfg.Sampling.Sample = sample
	}
	if count > 0 {
		cfg.Sampling.Count = count
	}
	return cfg, nil
}
