package bench

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"
)

var large = flag.Bool("large", false, "benchmarks: also run the Large and Huge sizes")

// TestRunQuick runs what gadbench -quick runs: every suite at its tiny
// sizes, verified and timed, and the table.
func TestRunQuick(t *testing.T) {
	start := time.Now()
	rep, err := Run(Config{Tiers: []Tier{Quick}, Sampling: QuickSampling, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rep.Markdown(&out); err != nil {
		t.Fatal(err)
	}
	for _, s := range Suites() {
		if !strings.Contains(out.String(), "| "+s.ID+" "+s.Name+" |") {
			t.Errorf("the table has no row for %s %s:\n%s", s.ID, s.Name, out.String())
		}
	}
	for _, k := range []Kind{JVP, Hand, FD} {
		if m, n := rep.Headline(k, nil); n != len(Suites()) || !(m > 0) {
			t.Errorf("headline of %s: got %v over %d suites, want a positive mean over %d", k, m, n, len(Suites()))
		}
	}
	if !strings.Contains(out.String(), "**S1–S3**") {
		t.Errorf("the table has no headline row:\n%s", out.String())
	}
	t.Logf("%v\n%s", time.Since(start), out.String())
}

// TestVerifyCatches checks that Verify reports wrong derivatives.
func TestVerifyCatches(t *testing.T) {
	base := func() *Problem { return rosenbrockSuite().Sizes[0].Make() }
	cases := []struct {
		name string
		edit func(p *Problem)
		want string
	}{
		{"correct", func(p *Problem) {}, ""},
		{"jvp tangent", func(p *Problem) {
			jvp := p.JVP
			p.JVP = func(x, v []float64) (float64, float64) {
				y, dy := jvp(x, v)
				return y, dy * (1 + 1e-8)
			}
		}, "jvp: directional derivative"},
		{"jvp value", func(p *Problem) {
			jvp := p.JVP
			p.JVP = func(x, v []float64) (float64, float64) {
				y, dy := jvp(x, v)
				return y * (1 + 1e-8), dy
			}
		}, "jvp: value"},
		{"hand", func(p *Problem) {
			hand := p.Hand
			p.Hand = func(x, dx []float64) float64 {
				y := hand(x, dx)
				dx[3] += 1
				return y
			}
		}, "hand: g·v"},
		{"grad", func(p *Problem) {
			p.Grad = func(x, dx []float64) float64 {
				y := p.Hand(x, dx)
				dx[0] *= 2
				return y
			}
		}, "grad (against hand): component 0"},
		{"modifies x", func(p *Problem) {
			p.Grad = func(x, dx []float64) float64 {
				y := p.Hand(x, dx)
				x[1] = 0
				return y
			}
		}, "grad modified x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := base()
			c.edit(p)
			err := Verify(p)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("got error %v, want none", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestSuites checks the suites' tables: unique labels, a Quick size for
// each, sizes of benchmarks.md's tiers.
func TestSuites(t *testing.T) {
	for _, s := range Suites() {
		seen := map[string]bool{}
		tiers := map[Tier]bool{}
		for _, sz := range s.Sizes {
			if seen[sz.Label] {
				t.Errorf("%s: size %q listed twice", s.ID, sz.Label)
			}
			seen[sz.Label] = true
			tiers[sz.Tier] = true
		}
		if !tiers[Quick] || !tiers[Small] {
			t.Errorf("%s: want Quick and Small sizes, have tiers %v", s.ID, tiers)
		}
	}
}

func BenchmarkS1aRosenbrock(b *testing.B) { benchSuite(b, "S1a") }
func BenchmarkS1bLogSumExp(b *testing.B)  { benchSuite(b, "S1b") }
func BenchmarkS1cODE(b *testing.B)        { benchSuite(b, "S1c") }
func BenchmarkS2aGMM(b *testing.B)        { benchSuite(b, "S2a") }
func BenchmarkS2cLSTM(b *testing.B)       { benchSuite(b, "S2c") }
func BenchmarkS3Normalize(b *testing.B)   { benchSuite(b, "S3") }

// benchSuite runs a sub-benchmark per size (Small and Medium; with -large
// also Large and Huge) and derivative kind. Each measures the ratio of the
// derivative's time to the function's as Run does (interleaved samples of
// at least 200 ms, or 20 ms with -short; the minimum of 5) and reports it
// as x_primal, with the function's time as primal-ns/op; its ns/op is the
// derivative's, timed by b.Loop.
func benchSuite(b *testing.B, id string) {
	var suite *Suite
	for _, s := range Suites() {
		if s.ID == id {
			suite = s
		}
	}
	sampling := DefaultSampling
	if testing.Short() {
		sampling.Sample = 20 * time.Millisecond
	}
	for _, sz := range suite.Sizes {
		switch sz.Tier {
		case Small, Medium:
		case Large, Huge:
			if !*large {
				continue
			}
		default:
			continue
		}
		b.Run(sz.Label, func(b *testing.B) {
			p := sz.Make()
			if err := Verify(p); err != nil {
				b.Fatalf("%s %s: derivative is wrong: %v", suite.ID, sz.Label, err)
			}
			primal, kinds, derivs := calls(p)
			for i, k := range kinds {
				b.Run(k.String(), func(b *testing.B) {
					best := measure([]func(){primal, derivs[i]}, sampling)
					for b.Loop() {
						derivs[i]()
					}
					b.ReportMetric(float64(best[1])/float64(best[0]), "x_primal")
					b.ReportMetric(float64(best[0].Nanoseconds()), "primal-ns/op")
				})
			}
		})
	}
}
