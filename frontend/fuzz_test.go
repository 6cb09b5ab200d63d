package frontend

import (
	"go/token"
	"strings"
	"testing"
)

// FuzzParseSyntax fuzzes the syntax of directives:
//
//	go test ./frontend -run '^$' -fuzz FuzzParseSyntax -fuzztime 5m
//
// Properties: parseSyntax does not panic; what it accepts has a valid
// mode name, options that are key=value with identifier keys given once,
// no positional argument after an option, and an offset for each field
// that points at the field in the comment; splitTarget of a positional
// argument rebuilds it.
func FuzzParseSyntax(f *testing.F) {
	for _, s := range []string{
		"jvp", "grad wrt=x,y", "taylor order=3 seed=line", "jvp\tLocal example.com/p.T.M wrt=x",
		"hvp HessVec gonum.org/v1/gonum/optimize/functions.Wood.Func", "grad gonum=true value=false",
		"jvp a=1 a=2", "jvp wrt=", " jvp", "JVP", "", "jvp x=1 y", "vjp test=8 opt=0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		if strings.ContainsAny(rest, "\n\r") {
			return // a line comment ends at the line
		}
		text := directivePrefix + rest
		s, err := parseSyntax(text)
		if err != nil {
			return
		}
		if !isModeName(s.mode) {
			t.Errorf("%q: mode %q accepted", text, s.mode)
		}
		fields := append(append([]string{}, s.positional...), optionStrings(s.options)...)
		if len(s.offsets) != len(fields) {
			t.Fatalf("%q: %d offsets for %d fields", text, len(s.offsets), len(fields))
		}
		for i, f := range fields {
			if off := s.offsets[i]; off < 0 || off > len(text) || !strings.HasPrefix(text[off:], f) {
				t.Errorf("%q: offset %d of %q points at %q", text, off, f, text[min(max(off, 0), len(text)):])
			}
		}
		seen := map[string]bool{}
		for _, o := range s.options {
			if !token.IsIdentifier(o.Key) || o.Value == "" || seen[o.Key] {
				t.Errorf("%q: option %q=%q accepted", text, o.Key, o.Value)
			}
			seen[o.Key] = true
		}
		for _, p := range s.positional {
			if strings.Contains(p, "=") {
				t.Errorf("%q: positional %q holds '='", text, p)
			}
			paths, names := splitTarget(p)
			for i := range paths {
				if got := paths[i] + "." + strings.Join(names[i], "."); got != p {
					t.Errorf("splitTarget(%q): %q", p, got)
				}
			}
		}
		if pos := parsePos(rest); pos.Line < 0 || pos.Column < 0 {
			t.Errorf("parsePos(%q) = %+v", rest, pos)
		}
	})
}

func optionStrings(opts []Option) []string {
	var ss []string
	for _, o := range opts {
		ss = append(ss, o.Key+"="+o.Value)
	}
	return ss
}
