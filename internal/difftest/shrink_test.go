package difftest

import (
	"bytes"
	"strings"
	"testing"
)

// TestShrink minimizes a program with a stand-in for the batch: the
// "failure" is a call of math.Sin on x[0]·p.X, and the result must keep
// it and little else.
func TestShrink(t *testing.T) {
	src := `// Program 5 of seed 9 of difftest's generator.
//
//difftest:len 3

package p

import "math"

// F5 is a random function.
//
//difftest:modes jvp grad taylor
func F5(x []float64, p Vec2, a float64) float64 {
	s := a * 2.0
	for i, v := range x {
		if v > a {
			s += math.Exp(math.Cos(v)) * float64(i)
		}
		t := h5(s, v)
		s += t
	}
	s += math.Sin(x[0] * p.X)
	return s + dot5(x, x)
}

func h5(a, b float64) float64 { return a*b + 1 }

func dot5(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
`
	p := &Program{Name: "s9p5", Src: []byte(src), Seed: 9, Index: 5}
	f := Outcome{Program: p, Entry: "F5", Mode: ModeGrad, Status: Fail, Kind: "oracle dot"}
	tries := 0
	try := func(progs []*Program) (Outcome, int, error) {
		tries++
		best := -1
		for k, q := range progs {
			if _, err := parse(q.Src); err != nil {
				t.Fatalf("candidate does not type-check: %v\n%s", err, q.Src)
			}
			if bytes.Contains(q.Src, []byte("math.Sin(x[0] * p.X)")) && (best < 0 || size(q.Src) < size(progs[best].Src)) {
				best = k
			}
		}
		return f, best, nil
	}
	q, _, err := shrink(ShrinkConfig{}, p, f, try)
	if err != nil {
		t.Fatal(err)
	}
	got := string(tidy(q.Src))
	for _, want := range []string{"//difftest:modes grad\n", "math.Sin(x[0] * p.X)", "func F5(x []float64, p Vec2) float64 {"} {
		if !strings.Contains(got, want) {
			t.Errorf("minimized program lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"h5", "dot5", "math.Exp", "for "} {
		if strings.Contains(got, gone) {
			t.Errorf("minimized program still has %q:\n%s", gone, got)
		}
	}
	if n := words(q.Src); n > 22 {
		t.Errorf("minimized program has %d words, want at most 22:\n%s", n, got)
	}
	t.Logf("%d batches; result:\n%s", tries, got)
}
