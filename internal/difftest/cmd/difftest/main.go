// Command difftest runs gadgen's random-program differential tester
// (package internal/difftest) for long runs: it generates programs,
// checks every mode of gadgen on them against each other and against
// complex-step derivatives, prints a summary table, and can minimize the
// failures into files.
//
//	go run ./internal/difftest/cmd/difftest -n 2000 -seed 7 -shrink -out internal/difftest/testdata/known
//	go run ./internal/difftest/cmd/difftest -tensors -n 200 -seed 3
//	go run ./internal/difftest/cmd/difftest -tensors -n 200 -seed 3 -shrink
//
// It runs in the gadgen repository (the batches' modules replace gadgen
// by it). See the documentation of package difftest.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gadgen/gadgen/internal/difftest"
)

func main() {
	os.Exit(run())
}

// isFlagSet reports whether the command line set the flag name.
func isFlagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func run() int {
	n := flag.Int("n", 1000, "number of programs")
	seed := flag.Uint64("seed", 1, "seed of the generator")
	first := flag.Int("first", 0, "index of the first program (-first 657 -n 1 checks program 657 alone)")
	batch := flag.Int("batch", 100, "programs per batch (one gadgen run and one go build each)")
	weights := flag.String("weights", "", "comma-separated `name=weight` changes of the generator's weights")
	points := flag.Int("points", 2, "random points per function")
	shrink := flag.Bool("shrink", false, "minimize failures (a few per mode and kind) and write them to -out")
	budget := flag.Duration("shrinkbudget", 10*time.Minute, "time to minimize one failure")
	shrinkMax := flag.Int("shrinkmax", 2, "failures to minimize per mode and kind")
	out := flag.String("out", "internal/difftest/testdata/known", "directory of the minimized failures (with -tensors, of the failures and refusals: default internal/difftest/testdata/known-tensor)")
	keep := flag.Bool("keep", false, "keep the batches' modules")
	tensors := flag.Bool("tensors", false, "generate tensor programs (package tensorops) instead of scalar ones")
	reversal := flag.String("reversal", "", "force how reverse mode differentiates calls: `joint`, split or inline (gadgen's -reversal)")
	flag.Parse()

	rc := &difftest.RunConfig{
		Config:       difftest.Config{Points: *points, Keep: *keep, Log: os.Stderr, Reversal: *reversal},
		N:            *n,
		Seed:         *seed,
		First:        *first,
		BatchSize:    *batch,
		Shrink:       *shrink,
		ShrinkBudget: *budget,
		ShrinkMax:    *shrinkMax,
		KnownDir:     *out,
	}
	if *weights != "" {
		base := difftest.DefaultWeights()
		if *tensors {
			base = difftest.DefaultTensorWeights()
		}
		w, err := base.With(strings.Split(*weights, ",")...)
		if err != nil {
			fmt.Fprintln(os.Stderr, "difftest:", err)
			return 2
		}
		rc.Weights = w
	}
	start := time.Now()
	if *tensors {
		if !isFlagSet("out") {
			rc.KnownDir = "internal/difftest/testdata/known-tensor"
		}
		s, written, err := difftest.RunTensors(rc)
		if s != nil {
			s.Write(os.Stdout)
			for _, o := range s.Failures {
				fmt.Println(o)
			}
		}
		for _, path := range written {
			fmt.Println("wrote", path)
		}
		fmt.Printf("time: %s\n", time.Since(start).Round(time.Second))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if len(s.Failures) > 0 {
			return 1
		}
		return 0
	}
	s, written, err := difftest.Run(rc)
	if s != nil {
		s.Write(os.Stdout)
		for _, o := range s.Failures {
			fmt.Println(o)
		}
	}
	for _, path := range written {
		fmt.Println("wrote", path)
	}
	fmt.Printf("time: %s\n", time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if len(s.Failures) > 0 {
		return 1
	}
	return 0
}
