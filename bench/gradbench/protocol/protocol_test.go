package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// counter is a module whose "count" function returns how often it ran and
// whose "boom" function panics.
func counter() map[string]Module {
	return map[string]Module{"m": {
		"count": func(json.RawMessage) (Prepared, error) {
			n := 0
			return Prepared{Run: func() { n++ }, Output: func() any { return n }}, nil
		},
		"boom": func(json.RawMessage) (Prepared, error) {
			return Prepared{Run: func() { panic("boom") }, Output: func() any { return nil }}, nil
		},
	}}
}

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"id": 0, "kind": "start", "eval": "m"}`,
		`{"id": 1, "kind": "define", "module": "m"}`,
		`{"id": 2, "kind": "evaluate", "module": "m", "function": "count", "input": {"min_runs": 3, "min_seconds": 0}}`,
		`{"id": 3, "kind": "analysis", "of": 2, "valid": true}`,
		`{"id": 4, "kind": "evaluate", "module": "m", "function": "count", "input": 2.5}`,
		`{"id": 5, "kind": "evaluate", "module": "m", "function": "boom", "input": {}}`,
		`{"id": 6, "kind": "define", "module": "other"}`,
		`{"id": 7, "kind": "evaluate", "module": "m", "function": "nope", "input": {}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out, counter()); err != nil {
		t.Fatal(err)
	}
	var resp []Response
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r Response
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		resp = append(resp, r)
	}
	if len(resp) != 8 {
		t.Fatalf("%d responses, want 8", len(resp))
	}
	for i, r := range resp {
		if r.ID != int64(i) {
			t.Errorf("response %d has id %d", i, r.ID)
		}
	}
	if resp[0].Tool != "gadgen" {
		t.Errorf("start: tool %q", resp[0].Tool)
	}
	ok := func(r Response) bool { return r.Success != nil && *r.Success }
	if !ok(resp[1]) || ok(resp[6]) {
		t.Errorf("define: success %v for m and %v for other, want true, false", ok(resp[1]), ok(resp[6]))
	}
	evals := func(r Response) int {
		n := 0
		for _, tm := range r.Timings {
			if tm.Name == "evaluate" {
				n++
			}
		}
		return n
	}
	if !ok(resp[2]) || string(resp[2].Output) != "3" || evals(resp[2]) != 3 {
		t.Errorf("min_runs 3: output %s, %d evaluate timings, want 3 and 3", resp[2].Output, evals(resp[2]))
	}
	if resp[3].Success != nil || resp[3].Output != nil {
		t.Errorf("analysis answered with more than its id: %+v", resp[3])
	}
	if !ok(resp[4]) || evals(resp[4]) != 1 {
		t.Errorf("input without Runs: %d runs, want 1", evals(resp[4]))
	}
	if ok(resp[5]) || !strings.Contains(resp[5].Error, "boom") {
		t.Errorf("panic: success %v, error %q", ok(resp[5]), resp[5].Error)
	}
	if ok(resp[7]) || !strings.Contains(resp[7].Error, "nope") {
		t.Errorf("unknown function: success %v, error %q", ok(resp[7]), resp[7].Error)
	}
}
