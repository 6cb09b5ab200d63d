package doccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink matches a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// slug returns GitHub's anchor of a heading: lower case, punctuation but
// hyphens and underscores dropped, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLetter(r rune) bool {
	return strings.ContainsRune("αβγδεζηθικλμνξοπρστυφχψωàáâäçèéêëìíîïñòóôöùúûü", r)
}

// anchors returns the anchors of a Markdown file's headings.
func anchors(text string) map[string]bool {
	a := map[string]bool{}
	inCode := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(l, "#") {
			a[slug(strings.TrimLeft(l, "#"))] = true
		}
	}
	return a
}

// TestMarkdownLinks checks every relative link of the repository's
// Markdown files: the file or directory exists, and an anchor names a
// heading of the file it points to.
func TestMarkdownLinks(t *testing.T) {
	root := "../.."
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[filepath.Clean(path)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("found %d Markdown files", len(files))
	}
	links := 0
	for path, text := range files {
		inCode := false
		for n, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "```") {
				inCode = !inCode
			}
			if inCode {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				file, anchor, _ := strings.Cut(target, "#")
				dest := path
				if file != "" {
					dest = filepath.Clean(filepath.Join(filepath.Dir(path), file))
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link to %s: no such file", path, n+1, target)
						continue
					}
				}
				if anchor == "" {
					continue
				}
				dt, ok := files[dest]
				if !ok {
					continue // an anchor into a non-Markdown file (a line)
				}
				if !anchors(dt)[anchor] {
					t.Errorf("%s:%d: link to %s: no heading #%s in %s", path, n+1, target, anchor, dest)
				}
			}
		}
	}
	if links == 0 {
		t.Errorf("found no relative link in %d Markdown files: the pattern matches nothing", len(files))
	}
}
