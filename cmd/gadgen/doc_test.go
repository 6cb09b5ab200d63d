package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/driver"
	"github.com/gadgen/gadgen/frontend"
)

// TestDocComplete fails when the command's documentation (doc.go, what go
// doc ./cmd/gadgen prints) leaves out a mode a directive can name, an
// option a mode accepts, or a flag: each must start a line of its list.
func TestDocComplete(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	listed := func(item string) bool {
		re := regexp.MustCompile(`(?m)^//\t` + regexp.QuoteMeta(item) + `([ \t,=]|$)`)
		return re.MatchString(doc)
	}
	modes := []string{frontend.RuleMode}
	options := map[string]bool{"wrt": true, "opt": true, "test": true}
	for _, m := range driver.DefaultModes() {
		if im, ok := m.(interface{ Internal() bool }); ok && im.Internal() {
			continue
		}
		modes = append(modes, m.Name())
		for _, o := range m.Options() {
			options[o] = true
		}
	}
	for _, m := range modes {
		if !listed(m) {
			t.Errorf("doc.go does not list the mode %q", m)
		}
	}
	for o := range options {
		if !regexp.MustCompile(`(?m)^//\t` + o + `=`).MatchString(doc) {
			t.Errorf("doc.go does not list the option %s=", o)
		}
	}
	var usage bytes.Buffer
	driver.Main([]string{"-h"}, &usage, &usage)
	flags := regexp.MustCompile(`(?m)^  -(\w+)`).FindAllStringSubmatch(usage.String(), -1)
	if len(flags) == 0 {
		t.Fatalf("no flags in gadgen -h:\n%s", usage.String())
	}
	for _, f := range flags {
		if !listed("-"+f[1]) && !strings.Contains(doc, "//\t-"+f[1]+" ") {
			t.Errorf("doc.go does not document the flag -%s", f[1])
		}
	}
}
