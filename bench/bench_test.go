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
	inHeadline := 0
	for _, s := range Suites() {
		if s.Aside == "" {
			inHeadline++
		}
		for k, why := range s.Pending {
			line := "- " + s.ID + " " + s.Name + ", "
			if !strings.Contains(out.String(), line) || !strings.Contains(out.String(), k.Title()) ||
				!strings.Contains(out.String(), why) || !strings.Contains(out.String(), notGenerated+" |") {
				t.Errorf("the table does not show that %s's %s is %s (want a cell saying so and a line %q… with the reason):\n%s",
					s.ID, k, notGenerated, line, out.String())
			}
		}
	}
	for _, k := range []Kind{JVP, Hand, FD} {
		if m, n := rep.Headline(k, nil); n != inHeadline || !(m > 0) {
			t.Errorf("headline of %s: got %v over %d suites, want a positive mean over %d", k, m, n, inHeadline)
		}
	}
	for _, want := range []string{"**S1–S3**", "Memory per call", "Not in the overall means: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output has no %q:\n%s", want, out.String())
		}
	}
	for _, row := range rep.Rows {
		for k := range row.Deriv {
			if _, ok := row.Mem[k]; !ok {
				t.Errorf("%s %s: %s was timed but its memory was not counted", row.Suite.ID, row.Size.Label, k)
			}
		}
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
		{"hvp", func(p *Problem) {
			hvp := p.HVP
			p.HVP = func(x, v, hv []float64) float64 {
				y := hvp(x, v, hv)
				hv[2] *= 1 + 1e-4
				return y
			}
		}, "hvp (against hand): component 2 of the Hessian-vector product"},
		{"hvp accumulates", func(p *Problem) {
			hvp := p.HVP
			p.HVP = func(x, v, hv []float64) float64 {
				tmp := make([]float64, len(hv))
				y := hvp(x, v, tmp)
				for i := range hv {
					hv[i] += tmp[i]
				}
				return y
			}
		}, "hvp (against hand): component 0"},
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

// TestSuites checks the suites' tables: unique IDs and labels, a Quick
// size for each, sizes of the tiers of README.md, no derivative both
// pending and present.
func TestSuites(t *testing.T) {
	ids := map[string]bool{}
	for _, s := range Suites() {
		if ids[s.ID] {
			t.Errorf("suite %s listed twice", s.ID)
		}
		ids[s.ID] = true
		seen := map[string]bool{}
		tiers := map[Tier]bool{}
		for _, sz := range s.Sizes {
			if seen[sz.Label] {
				t.Errorf("%s: size %q listed twice", s.ID, sz.Label)
			}
			seen[sz.Label] = true
			tiers[sz.Tier] = true
			if sz.Tier != Quick {
				continue
			}
			p := sz.Make()
			for k := range s.Pending {
				if p.has(k) {
					t.Errorf("%s: %s is pending, and the problem has it: remove it from Suite.Pending", s.ID, k)
				}
			}
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
func BenchmarkS2dMLP(b *testing.B)        { benchSuite(b, "S2d") }
func BenchmarkS2dMLPFlat(b *testing.B)    { benchSuite(b, "S2d-flat") }
func BenchmarkS2eGP(b *testing.B)         { benchSuite(b, "S2e") }
func BenchmarkS3Normalize(b *testing.B)   { benchSuite(b, "S3") }
func BenchmarkS4MLPHVP(b *testing.B)      { benchSuite(b, "S4") }
func BenchmarkS5TensorMLP(b *testing.B)   { benchSuite(b, "S5") }

// benchSuite runs a sub-benchmark per size (Small and Medium; with -large
// also Large and Huge) and derivative kind. Each measures the ratio of the
// derivative's time to the function's as Run does (interleaved samples of
// at least 200 ms, or 20 ms with -short; the minimum of 5) and reports it
// as x_primal, with the function's time as primal-ns/op; its ns/op, B/op
// and allocs/op are the derivative's, timed by b.Loop, and bytes_x_primal
// its bytes per call over the function's (where the function allocates).
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
					best, mem := measure([]func(){primal, derivs[i]}, sampling)
					b.ReportAllocs()
					for b.Loop() {
						derivs[i]()
					}
					b.ReportMetric(float64(best[1])/float64(best[0]), "x_primal")
					b.ReportMetric(float64(best[0].Nanoseconds()), "primal-ns/op")
					if mem[0].Bytes > 0 {
						b.ReportMetric(mem[1].Bytes/mem[0].Bytes, "bytes_x_primal")
					}
				})
			}
		})
	}
}
