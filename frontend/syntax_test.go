package frontend

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSyntax(t *testing.T) {
	tests := []struct {
		text       string
		mode       string
		positional []string
		options    []Option
		err        string
	}{
		{text: "//gad:jvp", mode: "jvp"},
		{text: "//gad:jvp  wrt=x,y", mode: "jvp", options: []Option{{"wrt", "x,y"}}},
		{text: "//gad:jvp\tf example.com/p.F wrt=x", mode: "jvp", positional: []string{"f", "example.com/p.F"}, options: []Option{{"wrt", "x"}}},
		{text: "//gad:", err: "want //gad:MODE"},
		{text: "//gad: jvp", err: "want //gad:MODE"},
		{text: "//gad:JVP", err: "bad mode name"},
		{text: "//gad:jvp wrt=", err: "not key=value"},
		{text: "//gad:jvp =x", err: "not key=value"},
		{text: "//gad:jvp wrt=x f", err: "after options"},
		{text: "//gad:jvp a=1 a=2", err: "given twice"},
		{text: `//gad:rule x="0.5 / r" y="where(x >= y, 1, 0)"`, mode: "rule", options: []Option{{"x", "0.5 / r"}, {"y", "where(x >= y, 1, 0)"}}},
		{text: `//gad:rule x="a \" b"`, mode: "rule", options: []Option{{"x", `a " b`}}},
		{text: `//gad:rule x="1`, err: "unterminated quoted value"},
		{text: `//gad:rule x=""`, err: "empty value"},
		{text: `//gad:rule x="\q"`, err: "bad quoted value"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			s, err := parseSyntax(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.mode != tt.mode || !slices.Equal(s.positional, tt.positional) || !slices.Equal(s.options, tt.options) {
				t.Errorf("got %+v", s)
			}
		})
	}
}

func TestSplitTarget(t *testing.T) {
	tests := []struct {
		target string
		paths  []string
	}{
		{"math.Sin", []string{"math"}},
		{"example.com/geom.Vec.Norm", []string{"example.com/geom.Vec", "example.com/geom"}},
		{"gopkg.in/yaml.v3.Node.Decode", []string{"gopkg.in/yaml.v3.Node", "gopkg.in/yaml.v3"}},
		{"example.com/geom", nil},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			paths, names := splitTarget(tt.target)
			if !slices.Equal(paths, tt.paths) {
				t.Errorf("got %v, want %v", paths, tt.paths)
			}
			for i, n := range names {
				if got := paths[i] + "." + strings.Join(n, "."); got != tt.target {
					t.Errorf("%s does not rebuild the target", got)
				}
			}
		})
	}
}

func TestParsePos(t *testing.T) {
	tests := map[string][3]any{
		"/a/b.go:3:4": {"/a/b.go", 3, 4},
		"/a/b.go:3":   {"/a/b.go", 3, 0},
		"c:/a/b.go:3": {"c:/a/b.go", 3, 0},
		"-":           {"-", 0, 0},
		"":            {"", 0, 0},
	}
	for s, want := range tests {
		p := parsePos(s)
		if p.Filename != want[0] || p.Line != want[1] || p.Column != want[2] {
			t.Errorf("parsePos(%q) = %+v, want %v", s, p, want)
		}
	}
}

func TestBuildFlags(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{nil, []string{"-tags=noasm,purego"}},
		{[]string{"-race"}, []string{"-race", "-tags=noasm,purego"}},
		{[]string{"-tags=a,b"}, []string{"-tags=a,b,noasm,purego"}},
		{[]string{"--tags=noasm", "-x"}, []string{"-tags=noasm,purego", "-x"}},
		{[]string{"-tags", "a", "-x"}, []string{"-tags=a,noasm,purego", "-x"}},
		{[]string{"-tags=a purego"}, []string{"-tags=a,purego,noasm"}},
	}
	for _, tt := range tests {
		if got := buildFlags(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("buildFlags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
