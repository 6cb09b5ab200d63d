package simplify

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocPipelines fails when the package doc's pipelines (doc.go) differ
// from the tables in pipeline.go, or leave a pass without its entry in the
// doc's list of passes.
func TestDocPipelines(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, p := range []struct {
		name   string
		passes []Pass
	}{{"Primal", Primal}, {"Derivative", Derivative}, {"Final", Final}} {
		m := regexp.MustCompile(`(?s)\n// ` + p.name + `, .*?\n//\n//\t([^\n]*)\n`).FindStringSubmatch(doc)
		if m == nil {
			t.Errorf("doc.go has no line of the %s pipeline", p.name)
			continue
		}
		var want []string
		for _, pass := range p.passes {
			want = append(want, pass.Name)
			if !strings.Contains(doc, "//   - "+pass.Name+" (") && !regexp.MustCompile(`//   - \w+ \([^)]*\) and `+pass.Name+` \(`).MatchString(doc) {
				t.Errorf("doc.go's list of passes has no entry for %s", pass.Name)
			}
		}
		if got := m[1]; got != strings.Join(want, " → ") {
			t.Errorf("doc.go's %s pipeline is\n\t%s\npipeline.go's is\n\t%s", p.name, got, strings.Join(want, " → "))
		}
	}
}
