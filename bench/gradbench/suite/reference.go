package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Manual is GradBench's reference: the C++ "manual" tool of GradBench's
// repository (tools/manual), built there with `make -C tools/manual`, whose
// binaries bin/<module> take an input file and a function name and print
// the output's JSON on their first line — how GradBench's evals call it
// (python/gradbench/gradbench/cpp.py).
type Manual struct {
	// Dir is the manual tool's directory (GradBench's tools/manual).
	Dir string
}

// Evaluate returns the manual tool's output for one evaluation, run once
// (GradBench asks its reference for min_runs 1, min_seconds 0).
func (m Manual) Evaluate(module, function string, input any) (any, error) {
	if e, err := Lookup(module); err == nil && e.Runs {
		in, err := WithRuns(input, Runs{MinRuns: 1})
		if err != nil {
			return nil, err
		}
		input = in
	}
	f, err := os.CreateTemp("", "gradbench-input-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(input); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(m.Dir, "bin", module), f.Name(), function)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("manual %s %s: %v: %s", module, function, err, stderr.Bytes())
	}
	line, _, _ := bytes.Cut(stdout.Bytes(), []byte("\n"))
	var out any
	if err := json.Unmarshal(line, &out); err != nil {
		return nil, fmt.Errorf("manual %s %s: output: %v", module, function, err)
	}
	return out, nil
}
