package driver

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"created", "", "a\nb\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"deleted", "a\n", "", "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n"},
		{"middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n",
			"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
		{"no newline", "a\nb", "a\nc", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unifiedDiff("a/f", "b/f", []byte(tt.old), []byte(tt.new)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestUnifiedDiffApplies applies the diffs of random edits and checks that
// they give the new text back.
func TestUnifiedDiffApplies(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var old []string
		for range rnd.IntN(40) {
			old = append(old, strconv.Itoa(rnd.IntN(8))+"\n")
		}
		var new []string
		for _, l := range old {
			switch rnd.IntN(6) {
			case 0: // delete
			case 1:
				new = append(new, "x"+l)
			case 2:
				new = append(new, l, "y\n")
			default:
				new = append(new, l)
			}
		}
		a, b := strings.Join(old, ""), strings.Join(new, "")
		d := unifiedDiff("a", "b", []byte(a), []byte(b))
		got, err := applyDiff(a, d)
		if err != nil || got != b {
			t.Fatalf("case %d: applying\n%s\nto\n%q\ngives %q (%v), want %q", i, d, a, got, err, b)
		}
	}
}

// applyDiff applies the unified diff d to old.
func applyDiff(old, d string) (string, error) {
	lines := splitLines([]byte(old))
	var out []string
	next := 0 // next line of old to copy
	for _, l := range splitLines([]byte(d)) {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "@@ -"):
			var start int
			if _, err := fmt.Sscanf(l, "@@ -%d", &start); err != nil {
				return "", err
			}
			if !strings.HasPrefix(l, fmt.Sprintf("@@ -%d,0 ", start)) {
				start-- // 1-based, except for an empty range
			}
			out = append(out, lines[next:start]...)
			next = start
		case l[0] == ' ':
			out = append(out, l[1:])
			next++
		case l[0] == '-':
			next++
		case l[0] == '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, lines[next:]...)
	return strings.Join(out, ""), nil
}
