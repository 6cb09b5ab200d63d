package suite

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name, expected, actual string
		mismatches             []string // substrings, one per mismatch
	}{
		{"equal", `{"a": [1, 2.5], "b": "x"}`, `{"b": "x", "a": [1.0, 2.5]}`, nil},
		{"within 1e-4 relative", `[1000.0]`, `[1000.1]`, nil},
		{"within 1e-4 absolute below 1", `[1e-9]`, `[5e-5]`, nil},
		{"beyond", `[1000.0]`, `[1000.3]`, []string{"[0]: 1000 != 1000.3"}},
		{"missing key", `{"a": 1, "b": 2}`, `{"a": 1}`, []string{"key 'b' is missing"}},
		{"extra key", `{"a": 1}`, `{"a": 1, "c": 2}`, []string{"unexpected key 'c'"}},
		{"length", `{"q": [[1, 2]]}`, `{"q": [[1]]}`, []string{"q[0]: expected an array of length 2, got length 1"}},
		{"type", `[1]`, `["1"]`, []string{"[0]: expected a number, got a string"}},
		{"nested path", `{"q": [[1, 2]]}`, `{"q": [[1, 3]]}`, []string{"q[0][1]: 2 != 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var e, a any
			if err := json.Unmarshal([]byte(c.expected), &e); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(c.actual), &a); err != nil {
				t.Fatal(err)
			}
			got := Compare(e, a)
			if len(got) != len(c.mismatches) {
				t.Fatalf("got mismatches %q, want %d like %q", got, len(c.mismatches), c.mismatches)
			}
			for i, m := range c.mismatches {
				if !strings.Contains(got[i], m) {
					t.Errorf("mismatch %d = %q, want it to contain %q", i, got[i], m)
				}
			}
		})
	}
}
