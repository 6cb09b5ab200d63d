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

// optional are the contenders that may be unusable on a machine (their
// library not installed), by key: PyTorch, which runs in a Python worker
// (CI has none). Any other contender reporting peers.ErrUnsupported fails
// checkAll: it would be checked nowhere.
var optional = map[string]bool{"pytorch": true}

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
				if errors.Is(err, peers.ErrUnsupported) && optional[e.Key] {
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
		if len(done) < 2 {
			t.Errorf("%s: %d contenders checked, want at least gadgen and the plain reference", d, len(done))
		}
	}
}

func TestAgreementSmall(t *testing.T) { checkAll(t, peers.Small) }

func TestAgreementFull(t *testing.T) {
	// -short checks the small size only. The peers are a module of their own,
	// which CI's go test ./... leaves out: run go test ./... in bench/peers.
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
					skipUnsupported(b, e.Key, err)
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

// skipUnsupported skips a benchmark of an optional contender that cannot
// run here and fails one of any other contender whose setup fails.
func skipUnsupported(b *testing.B, key string, err error) {
	b.Helper()
	if errors.Is(err, peers.ErrUnsupported) && optional[key] {
		// An optional contender (PyTorch) this machine lacks.
		b.Skip(err)
	}
	b.Fatalf("%s: setup: %v", key, err)
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
						skipUnsupported(b, e.Key, err)
					}
				}
			})
		}
	}
}
