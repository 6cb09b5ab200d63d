// Package suite is GradBench's side of the protocol, re-created in Go so
// that gadgen's tool can be run and validated here as GradBench runs it:
// each eval's sequence of evaluate messages with inputs generated exactly
// as GradBench's evals generate them (their numpy streams re-created in
// package nprand, or GradBench's data files), validation by GradBench's
// rule (Compare) against GradBench's reference (its C++ "manual" tool, or
// the fixed values and checks of the evals that have no reference), and
// the intermediary that drives a tool and records its timings (Session).
package suite

import "iter"

// A Request is one evaluate message of an eval.
type Request struct {
	Function string
	// Input is the message's input without GradBench's Runs fields
	// (min_runs, min_seconds), which the session adds to object inputs
	// of evals whose Runs is true.
	Input       any
	Description string
}

// Options are what GradBench's eval scripts take as arguments that the
// suite varies.
type Options struct {
	// Data is the directory holding GradBench's evals/<name>/data trees
	// (a GradBench checkout's evals directory, or testdata with a
	// subset).
	Data string
	// History is a directory holding data files GradBench has since
	// removed, under their old paths: lstm/data/lstm_l{2,4}_c{1024,4096}.txt,
	// which the LSTM eval used until 2025-03 (gbsuite extracts them from
	// the checkout's git history, commit f8ce3e95^).
	History string
	// Small restricts every eval to its smallest workloads (go test).
	Small bool
}

// An Eval is one of GradBench's evals.
type Eval struct {
	Name string
	// Runs says whether inputs carry min_runs and min_seconds (all evals
	// but hello).
	Runs bool
	// Primal and Derivative name the functions GradBench's scorer
	// compares (stats.rs); empty where it scores differently (particle,
	// saddle: the fastest of equivalent functions; hello: not scored).
	Primal, Derivative string
	// Requests yields the eval's evaluate messages in GradBench's order
	// with its default arguments.
	Requests func(Options) iter.Seq2[Request, error]
	// Expect returns the expected output for evaluations the manual
	// tool does not cover (particle, saddle: fixed values), or nil to
	// use the manual tool.
	Expect func(Request) (any, bool)
	// Check validates an output without a reference (hello), or is nil.
	Check func(Request, any) error
}
