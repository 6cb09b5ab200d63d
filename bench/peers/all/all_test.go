package all

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/gadgen/gadgen/bench/peers"
)

// TestMain runs tests and benchmarks on one thread (go test's -cpu flag
// still overrides it for benchmarks).
func TestMain(m *testing.M) {
	runtime.GOMAXPROCS(1)
	os.Exit(m.Run())
}

func TestRegistered(t *testing.T) {
	want := []string{peers.PlainKey, "gadgen", "gomlx", "gomlx-einsum", "gorgonia", "pytorch", "spago"}
	var got []string
	for _, e := range peers.Entries() {
		got = append(got, e.Key)
	}
	if len(got) < len(want) {
		t.Fatalf("registered %v, want at least %v", got, want)
	}
	for i, k := range want {
		if got[i] != k {
			t.Fatalf("registered %v, want %v first", got, want)
		}
	}
}

// checkAll checks every contender in every dtype on the problem of sizes s
// against the reference, and every two contenders of a dtype against each
// other.
func checkAll(t *testing.T, s peers.Sizes) {
	p := peers.NewProblem(s, 1)
	refLoss, ref := peers.Reference(p)
	for _, d := range peers.DTypes {
		var done []peers.Checked
		var names []string
		for _, e := range peers.Entries() {
			c := e.New(d)
			if err := c.Setup(p); err != nil {
				if errors.Is(err, peers.ErrUnsupported) {
					t.Logf("%s %s: %v", c.Name(), d, err)
					continue
				}
				t.Errorf("%s %s: setup: %v", c.Name(), d, err)
				continue
			}
			r, err := peers.Check(c, d, refLoss, ref)
			if err != nil {
				t.Error(err)
				continue
			}
			t.Logf("%s %s: loss %.1e, gradient %.1e (%s)", c.Name(), d, r.Diff.Loss, r.Diff.Grad, r.Diff.Worst)
			for i, o := range done {
				diff := peers.Compare(r.Loss, r.Grad, o.Loss, o.Grad)
				if !(diff.Max() <= peers.Tolerance(d)) {
					t.Errorf("%s and %s in %s differ: loss %.3g, gradient %.3g (%s)",
						c.Name(), names[i], d, diff.Loss, diff.Grad, diff.Worst)
				}
			}
			done = append(done, r)
			names = append(names, c.Name())
		}
	}
}

func TestAgreementSmall(t *testing.T) { checkAll(t, peers.Small) }

func TestAgreementFull(t *testing.T) {
	if testing.Short() {
		t.Skip("full size skipped in -short mode")
	}
	checkAll(t, peers.Full)
}

// benchmark times fn of every contender in every dtype on the full problem;
// the setup is outside the timer.
func benchmark(b *testing.B, fn func(peers.Contender) func() float64) {
	p := peers.NewProblem(peers.Full, 1)
	for _, e := range peers.Entries() {
		for _, d := range peers.DTypes {
			b.Run(e.Key+"/"+d.String(), func(b *testing.B) {
				c := e.New(d)
				if err := c.Setup(p); err != nil {
					b.Skip(err)
				}
				f := fn(c)
				b.ReportAllocs()
				for b.Loop() {
					f()
				}
			})
		}
	}
}

func BenchmarkLoss(b *testing.B) {
	benchmark(b, func(c peers.Contender) func() float64 { return c.Loss })
}

func BenchmarkGrad(b *testing.B) {
	benchmark(b, func(c peers.Contender) func() float64 { return c.Grad })
}

// BenchmarkSetup times the setup (graph construction and compilation) on
// the full problem.
func BenchmarkSetup(b *testing.B) {
	p := peers.NewProblem(peers.Full, 1)
	for _, e := range peers.Entries() {
		for _, d := range peers.DTypes {
			b.Run(e.Key+"/"+d.String(), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := e.New(d).Setup(p); err != nil {
						b.Skip(err)
					}
				}
			})
		}
	}
}
