// Package evaltest checks an eval's module the way GradBench validates
// it, for the eval packages' tests: each of the eval's smallest workloads
// (suite.Options.Small) goes through the module's JSON path and its
// output is compared by GradBench's rule with the expected output — the
// eval's fixed value (particle, saddle), or the reference tool's output
// committed in testdata/<function>-<description>.json.
//
// The committed outputs are remade by the package's test run with
// -update and GRADBENCH_MANUAL naming GradBench's tools/manual directory
// with its programs built:
//
//	GRADBENCH_MANUAL=/tmp/gradbench/tools/manual go test ./bench/gradbench/evals/det -update
package evaltest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
	"github.com/gadgen/gadgen/bench/gradbench/suite"
)

// update is the -update flag of every eval package's tests that use this
// package: rewrite the references from the reference tool first.
var update = flag.Bool("update", false, "rewrite testdata's reference outputs with GradBench's manual tool ($GRADBENCH_MANUAL)")

// Check evaluates eval's smallest workloads with module and compares each
// output with the expected one; with -update, it first writes the
// reference tool's outputs into testdata.
func Check(t *testing.T, eval string, module protocol.Module) {
	t.Helper()
	CheckWith(t, eval, module, suite.Options{})
}

// CheckWith is Check for an eval that reads data files: opts names their
// directories (Data, History: testdata holding the smallest workload's).
func CheckWith(t *testing.T, eval string, module protocol.Module, opts suite.Options) {
	t.Helper()
	e, err := suite.Lookup(eval)
	if err != nil {
		t.Fatal(err)
	}
	Case{Eval: e, Options: opts, Module: module}.Run(t)
}

// A Case is an eval's smallest workloads checked against their expected
// outputs, for evals that Check does not fit (a variant of an eval,
// references in another directory or compressed).
type Case struct {
	Eval *suite.Eval
	// Options are the eval's (Small is set by Run).
	Options suite.Options
	// Module is the tool's implementation of the eval's module.
	Module protocol.Module
	// Dir holds the references, <function>-<description>.json, or
	// .json.gz when Gzip; testdata when empty.
	Dir  string
	Gzip bool
}

// Run checks each of c's workloads and returns their number; an eval
// without workloads is an error of t.
func (c Case) Run(t *testing.T) int {
	t.Helper()
	e, eval := c.Eval, c.Eval.Name
	dir := c.Dir
	if dir == "" {
		dir = "testdata"
	}
	opts := c.Options
	opts.Small = true
	n := 0
	for r, err := range e.Requests(opts) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		name := r.Function + "-" + r.Description
		want, ok := any(nil), false
		if e.Expect != nil {
			want, ok = e.Expect(r)
		}
		if !ok {
			file := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".json")
			if c.Gzip {
				file += ".gz"
			}
			want = reference(t, eval, r, file, *update)
		}
		in := r.Input
		if e.Runs {
			if in, err = suite.WithRuns(r.Input, suite.Runs{MinRuns: 1}); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := protocol.Evaluate(map[string]protocol.Module{eval: c.Module}, eval, r.Function, raw)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: output: %v", name, err)
		}
		if m := suite.Compare(want, got); len(m) > 0 {
			t.Errorf("%s: %d mismatches with GradBench's expected output, the first: %s", name, len(m), m[0])
		}
	}
	if n == 0 {
		t.Fatalf("eval %s has no workloads", eval)
	}
	return n
}

// reference returns the expected output of r read from file, which it
// first writes from the reference tool when update is set.
func reference(t *testing.T, eval string, r suite.Request, file string, update bool) any {
	t.Helper()
	if update {
		dir := os.Getenv("GRADBENCH_MANUAL")
		if dir == "" {
			t.Fatal("-update needs GRADBENCH_MANUAL, GradBench's tools/manual directory with its programs built")
		}
		out, err := suite.Manual{Dir: dir}.Evaluate(eval, r.Function, r.Input)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(file, ".gz") {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(append(b, '\n'))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			b = z.Bytes()
		} else {
			b = append(b, '\n')
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (make it with -update)", err)
	}
	if strings.HasSuffix(file, ".gz") {
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err == nil {
			b, err = io.ReadAll(z)
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	var want any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return want
}
