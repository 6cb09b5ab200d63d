package higher

import (
	"fmt"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/gadgen/gadgen/bench/internal/verify"
	"github.com/gadgen/gadgen/bench/rosenbrock"
	"github.com/gadgen/gadgen/gadtest"
)

// small is an MLP small enough for finite differences.
func small() *MLP { return NewMLP(4, 7, 6, 5, 3, 1) }

// TestMLP verifies what the benchmarks time: the Laplacian, the HVP and
// the jet of the MLP against finite differences, and the Laplacian from D
// HVPs against the generated one.
func TestMLP(t *testing.T) {
	m := small()
	gadtest.Laplacian(t, m.Value, m.ValueLaplacian, gadtest.Dim(m.D))
	gadtest.HVP(t, m.Value, m.ValueHVP, gadtest.Dim(m.D))
	gadtest.Taylor(t, m.Value, func(x, v []float64) []float64 {
		f, f1, f2 := m.ValueTaylor(x, v)
		return []float64{f, f1, f2}
	}, gadtest.Dim(m.D))
	x := gadtest.Uniform(gadtest.NewRand(3), m.D, -1, 1)
	_, want := m.ValueLaplacian(x)
	if got := lapByHVP(m, x); !(math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))) {
		t.Errorf("Laplacian by HVPs: got %v, want %v", got, want)
	}
	if got := lapByTaylor(m, x); !(math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))) {
		t.Errorf("Laplacian by plain Taylor: got %v, want %v", got, want)
	}
	gadtest.Hessian(t, m.Value, m.ValueHessian, gadtest.Dim(m.D))
}

// TestMLPGrad checks the hand-written gradient against central
// differences, and gadgen's gradient and JVP against it, to 1e-10.
func TestMLPGrad(t *testing.T) {
	for i, m := range []*MLP{small(), NewMLP(3, 5, 4, 6, 2, 2), NewMLP(50, 40, 30, 20, 10, 3)} {
		t.Run(fmt.Sprintf("D=%d", m.D), func(t *testing.T) {
			rnd := gadtest.NewRand(uint64(10 + i))
			x := gadtest.Uniform(rnd, m.D, -1, 1)
			y := m.Value(x)
			want := make([]float64, m.D)
			if err := verify.Value(m.HandGrad(x, want), y, verify.Exact); err != nil {
				t.Errorf("HandGrad: %v", err)
			}
			if err := verify.FDGradient(m.Value, x, want, verify.FD); err != nil {
				t.Errorf("HandGrad: %v", err)
			}
			g := make([]float64, m.D)
			if err := verify.Value(m.ValueGrad(x, g), y, verify.Exact); err != nil {
				t.Errorf("ValueGrad: %v", err)
			}
			if err := verify.Same(g, want, verify.Exact); err != nil {
				t.Errorf("ValueGrad: %v", err)
			}
			v := gadtest.Uniform(rnd, m.D, -1, 1)
			yj, dy := m.ValueJVP(x, v)
			if err := verify.Value(yj, y, verify.Exact); err != nil {
				t.Errorf("ValueJVP: %v", err)
			}
			if err := verify.Dot(dy, want, v, verify.Exact); err != nil {
				t.Errorf("ValueJVP: %v", err)
			}
		})
	}
}

// lapByTaylor is the Laplacian by plain Taylor mode: D second-order
// sweeps along the unit vectors, Σᵢ 2·f2(eᵢ).
func lapByTaylor(m *MLP, x []float64) float64 {
	e := make([]float64, len(x))
	lap := 0.0
	for i := range x {
		e[i] = 1
		_, _, f2 := m.ValueTaylor(x, e)
		lap += 2 * f2
		e[i] = 0
	}
	return lap
}

// lapByHVP is the Laplacian as Σᵢ (H·eᵢ)ᵢ, D Hessian-vector products by
// forward over reverse.
func lapByHVP(m *MLP, x []float64) float64 {
	e, hv := make([]float64, len(x)), make([]float64, len(x))
	lap := 0.0
	for i := range x {
		e[i] = 1
		m.ValueHVP(x, e, hv)
		lap += hv[i]
		e[i] = 0
	}
	return lap
}

// TestChain checks the order sweep's jets: each against the next order's
// and, along the chain, against finite differences.
func TestChain(t *testing.T) {
	jets := []func(x, v float64) []float64{
		func(x, v float64) []float64 { a, b := ChainT1(x, v); return []float64{a, b} },
		func(x, v float64) []float64 { a, b, c := ChainT2(x, v); return []float64{a, b, c} },
		func(x, v float64) []float64 { a, b, c, d := ChainT3(x, v); return []float64{a, b, c, d} },
		func(x, v float64) []float64 { a, b, c, d, e := ChainT4(x, v); return []float64{a, b, c, d, e} },
		func(x, v float64) []float64 {
			a, b, c, d, e, f := ChainT5(x, v)
			return []float64{a, b, c, d, e, f}
		},
		func(x, v float64) []float64 {
			a, b, c, d, e, f, g := ChainT6(x, v)
			return []float64{a, b, c, d, e, f, g}
		},
		func(x, v float64) []float64 {
			a, b, c, d, e, f, g, h := ChainT7(x, v)
			return []float64{a, b, c, d, e, f, g, h}
		},
		func(x, v float64) []float64 {
			a, b, c, d, e, f, g, h, i := ChainT8(x, v)
			return []float64{a, b, c, d, e, f, g, h, i}
		},
	}
	x := 0.3
	top := jets[len(jets)-1](x, 1)
	for d, jet := range jets {
		c := jet(x, 1)
		for k := range c {
			if !(math.Abs(c[k]-top[k]) <= 1e-12*math.Max(1, math.Abs(top[k]))) {
				t.Errorf("order %d, coefficient %d: got %v, order 8 has %v", d+1, k, c[k], top[k])
			}
		}
	}
	gadtest.Taylor(t, func(x []float64) float64 { return Chain(x[0]) }, func(x, v []float64) []float64 {
		return jets[3](x[0], v[0])
	}, gadtest.Box(1, -1, 1), gadtest.Rel(1e-5))
}

// BenchmarkS4 times the Laplacian of the S4 MLP at batch 1: gadgen's
// Laplacian (D second-order Taylor sweeps), D Hessian-vector products
// by forward over reverse, and gonum's fd.Laplacian; x_primal is each
// time over the network's.
func BenchmarkS4(b *testing.B) {
	m := NewMLP(50, 768, 768, 512, 512, 1)
	x := gadtest.Uniform(gadtest.NewRand(2), m.D, -1, 1)
	primal := perCall(func() { m.Value(x) })
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(primal), "x_primal")
		})
	}
	run("laplacian", func() { m.ValueLaplacian(x) })
	run("plain-taylor", func() { lapByTaylor(m, x) })
	run("hvp-forward-over-reverse", func() { lapByHVP(m, x) })
	run("fd", func() { fd.Laplacian(m.Value, x, &fd.Settings{Formula: fd.Central2nd}) })
	h := make([]float64, m.D*m.D)
	run("hessian-trace", func() { m.ValueHessian(x, h) })
}

// BenchmarkS4b times the order sweep: one jet of order d of the sin∘exp
// chain over the chain's time.
func BenchmarkS4b(b *testing.B) {
	x := 0.3
	primal := perCall(func() { x = 0.3 + Chain(x)*1e-300 })
	fs := []func(x float64) float64{
		func(x float64) float64 { a, _ := ChainT1(x, 1); return a },
		func(x float64) float64 { _, _, c := ChainT2(x, 1); return c },
		func(x float64) float64 { _, _, _, d := ChainT3(x, 1); return d },
		func(x float64) float64 { _, _, _, _, e := ChainT4(x, 1); return e },
		func(x float64) float64 { _, _, _, _, _, f := ChainT5(x, 1); return f },
		func(x float64) float64 { _, _, _, _, _, _, g := ChainT6(x, 1); return g },
		func(x float64) float64 { _, _, _, _, _, _, _, h := ChainT7(x, 1); return h },
		func(x float64) float64 { _, _, _, _, _, _, _, _, i := ChainT8(x, 1); return i },
	}
	for d, f := range fs {
		b.Run(fmt.Sprintf("d=%d", d+1), func(b *testing.B) {
			y := 0.3
			for b.Loop() {
				y = 0.3 + f(y)*1e-300
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(primal), "x_primal")
		})
	}
}

// perCall returns the time of one call of f in nanoseconds: the minimum
// over 5 samples of at least 50 ms each.
func perCall(f func()) float64 {
	best := math.Inf(1)
	n := 1
	for range 5 {
		for {
			start := time.Now()
			for range n {
				f()
			}
			d := time.Since(start)
			if d >= 50*time.Millisecond {
				best = math.Min(best, float64(d.Nanoseconds())/float64(n))
				break
			}
			n *= 2
		}
	}
	return best
}

func TestRosenbrockHVP(t *testing.T) {
	gadtest.HVP(t, rosenbrock.Rosenbrock, RosenbrockHVP, gadtest.Dim(6))
}

// BenchmarkS1aHVP times the Hessian-vector product of S1a's Rosenbrock
// (forward over reverse) against its gradient (reverse mode): x_grad.
func BenchmarkS1aHVP(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		x := rosenbrock.Point(n, 1)
		v := gadtest.Uniform(gadtest.NewRand(4), n, -1, 1)
		hv, g := make([]float64, n), make([]float64, n)
		grad := perCall(func() { clear(g); rosenbrock.RosenbrockGrad(x, g) })
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				RosenbrockHVP(x, v, hv)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/grad, "x_grad")
		})
	}
}
