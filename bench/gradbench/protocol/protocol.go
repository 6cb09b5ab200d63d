// Package protocol is the tool's side of GradBench's JSON-lines protocol
// (GradBench's CONTRIBUTING.md, "Protocol"): an eval sends messages on the
// tool's stdin, one JSON object a line, and the tool answers each on stdout
// with a response carrying the same "id".
//
// The messages are
//
//	start     → {"id", "tool", "config"}
//	define    → {"id", "success"} (false when the module is unknown)
//	evaluate  → {"id", "success", "output", "timings"} or {"id", "success": false, "error"}
//	analysis  → {"id"}
//
// and any other kind gets {"id"}. An evaluate input that holds "min_runs"
// and "min_seconds" (GradBench's Runs) is evaluated at least min_runs times
// and until the evaluations together took min_seconds, one "evaluate"
// timing per run; an input without them (the hello eval's) once.
//
// Serve recovers a panicking function and answers with success false and
// the panic's message, so that one failing evaluation does not end a
// session.
package protocol

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"time"
)

// A Timing is one entry of a response's "timings".
type Timing struct {
	Name        string `json:"name"`
	Nanoseconds int64  `json:"nanoseconds"`
}

// A Prepared evaluation: Run does the work that is timed, once per run;
// Output returns what the last run computed, in the JSON shape the eval's
// specification gives.
type Prepared struct {
	Run    func()
	Output func() any
}

// A Function decodes an evaluate message's input into Go values (not timed)
// and returns the evaluation to run.
type Function func(input json.RawMessage) (Prepared, error)

// A Module is what a define message names: its functions by name.
type Module map[string]Function

// Message is a message from the eval, all kinds' fields together.
type Message struct {
	ID       int64           `json:"id"`
	Kind     string          `json:"kind"`
	Module   string          `json:"module,omitempty"`
	Function string          `json:"function,omitempty"`
	Input    json.RawMessage `json:"input,omitempty"`
	// Description is the eval's short name of the workload.
	Description string `json:"description,omitempty"`
	Of          int64  `json:"of,omitempty"`
	Valid       bool   `json:"valid,omitempty"`
	Error       string `json:"error,omitempty"`
}

// Response is the tool's answer, all kinds' fields together; fields that a
// kind does not use are left out.
type Response struct {
	ID      int64           `json:"id"`
	Tool    string          `json:"tool,omitempty"`
	Config  any             `json:"config,omitempty"`
	Success *bool           `json:"success,omitempty"`
	Output  json.RawMessage `json:"output,omitempty"`
	Timings []Timing        `json:"timings,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// Runs is GradBench's request to repeat an evaluation.
type Runs struct {
	MinRuns    *int     `json:"min_runs"`
	MinSeconds *float64 `json:"min_seconds"`
}

// Serve answers the messages read from r on w until r ends. It returns an
// error only for input that is not the protocol (a line that is not JSON)
// or when w fails.
func Serve(r io.Reader, w io.Writer, modules map[string]Module) error {
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var m Message
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				return fmt.Errorf("gradbench: message is not JSON: %v", jerr)
			}
			if eerr := enc.Encode(Answer(m, modules)); eerr != nil {
				return eerr
			}
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Answer returns the response to one message.
func Answer(m Message, modules map[string]Module) Response {
	r := Response{ID: m.ID}
	switch m.Kind {
	case "start":
		r.Tool = "gadgen"
		r.Config = map[string]any{"go": runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0)}
	case "define":
		_, ok := modules[m.Module]
		r.Success = &ok
		if !ok {
			r.Error = fmt.Sprintf("gadgen has no module %q", m.Module)
		}
	case "evaluate":
		out, timings, err := Evaluate(modules, m.Module, m.Function, m.Input)
		ok := err == nil
		r.Success = &ok
		if err != nil {
			r.Error = err.Error()
			break
		}
		r.Output, r.Timings = out, timings
	}
	return r
}

// Evaluate runs function fn of module mod on input as often as the input's
// Runs ask and returns the output's JSON and the timings: one "prepare"
// (decoding the input into Go values) and one "evaluate" per run.
func Evaluate(modules map[string]Module, mod, fn string, input json.RawMessage) (out json.RawMessage, timings []Timing, err error) {
	f, ok := modules[mod][fn]
	if !ok {
		return nil, nil, fmt.Errorf("module %q has no function %q", mod, fn)
	}
	defer func() {
		if p := recover(); p != nil {
			out, timings = nil, nil
			err = fmt.Errorf("%s.%s panicked: %v\n%s", mod, fn, p, debug.Stack())
		}
	}()
	var runs Runs
	_ = json.Unmarshal(input, &runs) // a bare number (hello) has no Runs
	minRuns, minSeconds := 1, 0.0
	if runs.MinRuns != nil {
		minRuns = max(*runs.MinRuns, 1)
	}
	if runs.MinSeconds != nil {
		minSeconds = *runs.MinSeconds
	}
	start := time.Now()
	p, err := f(input)
	if err != nil {
		return nil, nil, err
	}
	timings = append(timings, Timing{"prepare", time.Since(start).Nanoseconds()})
	var elapsed time.Duration
	for i := 0; i < minRuns || elapsed.Seconds() < minSeconds; i++ {
		t0 := time.Now()
		p.Run()
		d := time.Since(t0)
		elapsed += d
		timings = append(timings, Timing{"evaluate", d.Nanoseconds()})
	}
	out, err = json.Marshal(p.Output())
	if err != nil {
		return nil, nil, fmt.Errorf("%s.%s: output: %v", mod, fn, err)
	}
	return out, timings, nil
}

// Decode unmarshals an evaluate input into v, naming the module in the
// error.
func Decode(input json.RawMessage, v any) error {
	if err := json.Unmarshal(input, v); err != nil {
		return fmt.Errorf("input: %v", err)
	}
	return nil
}
