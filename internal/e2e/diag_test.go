package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/driver"
)

// want is an expected diagnostic: a pattern on a line of a file.
type want struct {
	file string // base name
	line int
	re   *regexp.Regexp
}

func (w want) String() string { return fmt.Sprintf("%s:%d: %q", w.file, w.line, w.re) }

// wantRE matches a want comment: "// want", an optional line offset, then
// the patterns (Go string literals).
var wantRE = regexp.MustCompile(`//\s*want(\s+[+-]\d+)?\s+(["` + "`" + `].*)$`)

// parseWants reads the want comments of the .go files of dir.
func parseWants(t *testing.T, dir string) []want {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var wants []want
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(src))
		for n := 1; sc.Scan(); n++ {
			m := wantRE.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			line := n
			if m[1] != "" {
				off, err := strconv.Atoi(strings.TrimSpace(m[1]))
				if err != nil {
					t.Fatalf("%s:%d: bad line offset %q", file, n, m[1])
				}
				line += off
			}
			rest := m[2]
			for rest != "" {
				lit, err := strconv.QuotedPrefix(rest)
				if err != nil {
					t.Fatalf("%s:%d: want: %v in %q", file, n, err, rest)
				}
				pat, _ := strconv.Unquote(lit)
				re, err := regexp.Compile(pat)
				if err != nil {
					t.Fatalf("%s:%d: want: %v", file, n, err)
				}
				wants = append(wants, want{filepath.Base(file), line, re})
				rest = strings.TrimSpace(rest[len(lit):])
			}
		}
	}
	return wants
}

// diagnostic is one "file:line:col: gadgen: …" line of gadgen's output.
type diagnostic struct {
	file      string // base name
	line, col int
	msg       string // from "gadgen:" on
	text      string // the whole line
}

var diagRE = regexp.MustCompile(`^(.+?):(\d+):(\d+): (gadgen: .*)$`)

func parseDiagnostics(out string) []diagnostic {
	var ds []diagnostic
	for _, l := range strings.Split(out, "\n") {
		m := diagRE.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		ds = append(ds, diagnostic{filepath.Base(m[1]), line, col, m[4], l})
	}
	return ds
}

// gradFiles lists the generated files in dir.
func gradFiles(t *testing.T, dir string) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, "*_grad*.go"))
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestDiagnostics runs gadgen on each package of testdata/diag and checks
// that it fails with status 1, reports a diagnostic matching each // want
// comment at its line, and writes no file.
func TestDiagnostics(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "diag", "*"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = slices.DeleteFunc(dirs, func(d string) bool {
		fi, err := os.Stat(d)
		return err != nil || !fi.IsDir()
	})
	if len(dirs) == 0 {
		t.Fatal("no test data")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			wants := parseWants(t, dir)
			if len(wants) == 0 {
				t.Fatalf("%s has no // want comment", dir)
			}
			before := gradFiles(t, dir)
			t.Cleanup(func() {
				// Leave the test data as it was, even if gadgen wrote.
				for _, f := range gradFiles(t, dir) {
					if !slices.Contains(before, f) {
						os.Remove(f)
					}
				}
			})

			var stdout, stderr bytes.Buffer
			code := driver.Main([]string{"./" + filepath.ToSlash(dir)}, &stdout, &stderr)
			output := stdout.String() + stderr.String()
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			diags := parseDiagnostics(output)
			used := make([]bool, len(diags))
			for _, w := range wants {
				found := false
				for i, d := range diags {
					if d.file == w.file && d.line == w.line && w.re.MatchString(d.msg) {
						found, used[i] = true, true
					}
				}
				if !found {
					t.Errorf("%s:%d: no diagnostic matching %q", w.file, w.line, w.re)
				}
			}
			// A package whose source says "want nothing else" expects no
			// other diagnostic (follow-on errors that must not appear).
			strict := wantsNothingElse(t, dir)
			for i, d := range diags {
				switch {
				case used[i]:
				case strict:
					t.Errorf("also reported, and the package wants nothing else: %s", d.text)
				case !t.Failed():
					t.Logf("also reported (no // want): %s", d.text)
				}
			}
			if t.Failed() {
				t.Logf("gadgen's output:\n%s", output)
			}
			if after := gradFiles(t, dir); len(after) > len(before) {
				t.Errorf("gadgen wrote %v; it must write nothing when it reports problems", after)
			}
		})
	}
}

// wantsNothingElse reports whether a Go file of dir has the comment line
// "// want nothing else".
func wantsNothingElse(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(string(src), "\n") {
			if strings.TrimSpace(l) == "// want nothing else" {
				return true
			}
		}
	}
	return false
}

// The want parser is itself tested, so that a typo in test data cannot
// make a case vacuous.
func TestParseWants(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n" +
		"func F() {} // want \"a\" `b\"c`\n" +
		"// want +2 \"next\"\n" +
		"//\n" +
		"//gad:nope\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(parseWants(t, dir))
	if want := "[p.go:2: \"a\" p.go:2: \"b\\\"c\" p.go:5: \"next\"]"; got != want {
		t.Errorf("parseWants = %s, want %s", got, want)
	}
	ds := parseDiagnostics("x\n/a/b/p.go:5:1: gadgen: directive: unknown mode \"nope\"\n")
	if len(ds) != 1 || ds[0].file != "p.go" || ds[0].line != 5 || ds[0].col != 1 || !strings.HasPrefix(ds[0].msg, "gadgen: directive:") {
		t.Errorf("parseDiagnostics = %+v", ds)
	}
}
