// Package suitetest is what the tests of gadgen's GradBench evals share:
// it runs an eval's requests through a tool's module, as the protocol
// does, and compares the outputs by GradBench's rule with reference
// outputs committed in testdata, which it can write from GradBench's
// manual tool.
package suitetest

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
	"github.com/gadgen/gadgen/bench/gradbench/suite"
)

// ManualEnv names the environment variable that gives the directory of
// GradBench's manual tool (GradBench's tools/manual, built) for Update.
const ManualEnv = "GRADBENCH_MANUAL"

// A Case is an eval's requests checked against references.
type Case struct {
	// Eval yields the requests, with Options.
	Eval    *suite.Eval
	Options suite.Options
	// Module is the tool's implementation of the eval's module.
	Module protocol.Module
	// Dir holds the reference outputs, one file per request named
	// <description>.<function>.json, or .json.gz when Gzip.
	Dir  string
	Gzip bool
	// Update writes the references first, from the manual tool in
	// $GRADBENCH_MANUAL.
	Update bool
}

// Run checks each request of c and returns their number. A request whose
// output does not match its reference is an error of t, naming the
// request, the number of mismatches and the first.
func (c Case) Run(t *testing.T) int {
	t.Helper()
	n := 0
	for r, err := range c.Eval.Requests(c.Options) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		name := filepath.Join(c.Dir, r.Description+"."+r.Function+".json")
		if c.Gzip {
			name += ".gz"
		}
		if c.Update {
			want, err := suite.Manual{Dir: os.Getenv(ManualEnv)}.Evaluate(c.Eval.Name, r.Function, r.Input)
			if err != nil {
				t.Fatal(err)
			}
			if err := writeJSON(name, want); err != nil {
				t.Fatal(err)
			}
		}
		want, err := readJSON(name)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(withRuns(r.Input))
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := protocol.Evaluate(map[string]protocol.Module{c.Eval.Name: c.Module}, c.Eval.Name, r.Function, raw)
		if err != nil {
			t.Errorf("%s %s: %v", r.Description, r.Function, err)
			continue
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if m := suite.Compare(want, got); len(m) > 0 {
			t.Errorf("%s %s: %d mismatches with the manual tool's output, the first: %s", r.Description, r.Function, len(m), m[0])
		}
	}
	return n
}

// withRuns returns an object input with GradBench's Runs for one run.
func withRuns(input any) any {
	obj, ok := input.(map[string]any)
	if !ok {
		return input
	}
	in := make(map[string]any, len(obj)+2)
	for k, v := range obj {
		in[k] = v
	}
	in["min_runs"], in["min_seconds"] = 1, 0
	return in
}

func writeJSON(name string, v any) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	var w io.WriteCloser = f
	if strings.HasSuffix(name, ".gz") {
		w = gzip.NewWriter(f)
	}
	if err := json.NewEncoder(w).Encode(v); err != nil {
		f.Close()
		return err
	}
	if w != io.WriteCloser(f) {
		if err := w.Close(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func readJSON(name string) (any, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = z
	}
	var v any
	err = json.NewDecoder(r).Decode(&v)
	return v, err
}
