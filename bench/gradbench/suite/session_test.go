package suite

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunScript runs the hello eval through the upstream run script
// (tools/gadgen/run.sh, building the tool from this checkout), the way
// GradBench's CLI runs a tool, and checks every output and the log.
func TestRunScript(t *testing.T) {
	// -short leaves out building the tool with the go command; CI runs it.
	if testing.Short() {
		t.Skip("builds the tool")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GADGEN_SRC", root)
	var log bytes.Buffer
	s := &Session{
		Eval: &helloEval,
		Tool: []string{filepath.Join(root, "bench", "gradbench", "tools", "gadgen", "run.sh")},
		Runs: Runs{MinRuns: 1}, Log: &log,
	}
	results, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 8 {
		t.Fatalf("%d results, want 8", len(results))
	}
	for _, r := range results {
		if !r.Success || !r.Valid || r.Runs != 1 {
			t.Errorf("%s %s: success %v valid %v runs %d: %s", r.Function, r.Description, r.Success, r.Valid, r.Runs, r.Error)
		}
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	// start, define, and per evaluation its message, response, analysis
	// and response.
	if want := 2*2 + 8*4; len(lines) != want {
		t.Errorf("log has %d lines, want %d", len(lines), want)
	}
	if !strings.Contains(lines[1], `"tool":"gadgen"`) {
		t.Errorf("start response %s does not name the tool", lines[1])
	}
	if _, err := os.Stat(filepath.Join(root, "bench", "gradbench", "tools", "gadgen", "evals.txt")); err != nil {
		t.Error(err)
	}
}
