package difftest

import (
	"bytes"
	"testing"
)

// TestGenerateTensor: tensor programs are deterministic, type-check and
// say what the harness needs.
func TestGenerateTensor(t *testing.T) {
	for i := range 150 {
		p := GenerateTensor(uint64(1+i%3), i)
		if q := GenerateTensor(uint64(1+i%3), i); !bytes.Equal(p.Src, q.Src) {
			t.Fatalf("program %d: two runs differ", i)
		}
		if _, err := parseTensor(p.Src); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.Src)
		}
		if _, err := parseTensorProgram(p); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.Src)
		}
	}
}

// TestTensorCandidates: the shrinker's candidates of tensor programs
// type-check, keep their metadata readable and are no larger; an unused
// parameter goes, with its metadata and its name in wrt=.
func TestTensorCandidates(t *testing.T) {
	for _, i := range []int{5} {
		p := GenerateTensor(4, i)
		cands := tensorCandidates(p.Src)
		if len(cands) == 0 {
			t.Fatalf("program %d: no candidates\n%s", i, p.Src)
		}
		for _, c := range cands {
			if _, err := parseTensor(c); err != nil {
				t.Fatalf("program %d: a candidate does not type-check: %v\n%s", i, err, c)
			}
			if _, err := parseTensorProgram(&Program{Name: "c", Src: c}); err != nil {
				t.Fatalf("program %d: a candidate's metadata: %v\n%s", i, err, c)
			}
			if words(c) > words(p.Src) {
				t.Fatalf("program %d: a candidate of %d words, the program %d", i, words(c), words(p.Src))
			}
		}
	}
	src := []byte(`package p

import "github.com/gadgen/gadgen/tensorops"

//difftest:param x tensor 2,2
//difftest:param w1 tensor 2

//gad:jvp wrt=x,w1
func F(x *tensorops.Tensor, w1 *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(x))
}
`)
	for _, c := range tensorCandidates(src) {
		if bytes.Contains(c, []byte("//difftest:dropped w1\n")) && bytes.Contains(c, []byte("//gad:jvp wrt=x\n")) &&
			bytes.Contains(c, []byte("func F(x *tensorops.Tensor) float64 {")) {
			return
		}
	}
	t.Errorf("no candidate drops the unused parameter w1")
}

func TestDropWrt(t *testing.T) {
	for _, c := range []struct{ in, name, want string }{
		{"//gad:jvp wrt=x,w1,w2", "w1", "//gad:jvp wrt=x,w2"},
		{"//gad:taylor order=3 lanes=2 wrt=x,w1", "x", "//gad:taylor order=3 lanes=2 wrt=w1"},
		{"//gad:hvp wrt=x lanes=2", "y", "//gad:hvp wrt=x lanes=2"},
		{"//gad:grad", "x", "//gad:grad"},
	} {
		if got := dropWrt(c.in, c.name); got != c.want {
			t.Errorf("dropWrt(%q, %q) = %q, want %q", c.in, c.name, got, c.want)
		}
	}
}
