package grads

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/gadgen/gadgen/gadtest"
)

// gradCase flattens a function, its gradient and its JVP over x ∈ ℝⁿ.
type gradCase struct {
	name   string
	n      int
	lo, hi float64
	f      func(x []float64) float64
	grad   func(x []float64) (float64, []float64)
	jvp    func(x, v []float64) (float64, float64)
	tol    float64
	step   float64 // finite-difference step; 0 for gonum's default
}

func cases() []gradCase {
	a := []float64{2, 1, 0, 1, 3, -1, 0, -1, 4}
	c := []float64{1, -2, 3, 0.5, 0.25}
	return []gradCase{
		{name: "Rosenbrock", n: 5, lo: -2, hi: 2, f: Rosenbrock,
			grad: func(x []float64) (float64, []float64) { g := make([]float64, len(x)); return RosenbrockGrad(x, g), g },
			jvp:  RosenbrockJVP},
		{name: "Branchy", n: 2, lo: -2, hi: 2, f: func(x []float64) float64 { return Branchy(x[0], x[1]) },
			grad: func(x []float64) (float64, []float64) { f, a, b := BranchyGrad(x[0], x[1]); return f, []float64{a, b} },
			jvp:  func(x, v []float64) (float64, float64) { return BranchyJVP(x[0], v[0], x[1], v[1]) }},
		{name: "Series", n: 1, lo: -3, hi: 3, f: func(x []float64) float64 { return Series(x[0]) },
			grad: func(x []float64) (float64, []float64) { f, g := SeriesGrad(x[0]); return f, []float64{g} },
			jvp:  func(x, v []float64) (float64, float64) { return SeriesJVP(x[0], v[0]) }},
		{name: "Quad", n: 3, lo: -1, hi: 1, f: func(x []float64) float64 { return Quad(a, x) },
			grad: func(x []float64) (float64, []float64) { g := make([]float64, len(x)); return QuadGrad(a, x, g), g },
			jvp:  func(x, v []float64) (float64, float64) { return QuadJVP(a, x, v) }},
		{name: "Smooth", n: 6, lo: -2, hi: 2, f: Smooth,
			grad: func(x []float64) (float64, []float64) { g := make([]float64, len(x)); return SmoothGrad(x, g), g },
			jvp:  SmoothJVP},
		{name: "Clip", n: 6, lo: -2, hi: 2,
			f: func(x []float64) float64 { return Clip(x[2:], x[0]-2, x[1]+1) },
			grad: func(x []float64) (float64, []float64) {
				g := make([]float64, len(x)-2)
				f, dlo, dhi := ClipGrad(x[2:], g, x[0]-2, x[1]+1)
				return f, append([]float64{dlo, dhi}, g...)
			},
			jvp: func(x, v []float64) (float64, float64) { return ClipJVP(x[2:], v[2:], x[0]-2, v[0], x[1]+1, v[1]) }},
		{name: "Polar", n: 2, lo: 0.2, hi: 2, f: func(x []float64) float64 { return Polar(x[0], x[1]) },
			grad: func(x []float64) (float64, []float64) { f, a, b := PolarGrad(x[0], x[1]); return f, []float64{a, b} },
			jvp:  func(x, v []float64) (float64, float64) { return PolarJVP(x[0], v[0], x[1], v[1]) }},
		// float32 rounding (6e-8) needs a large step: error about h² + 6e-8/h.
		{name: "Single", n: 4, lo: -1, hi: 1, tol: 1e-3, step: 1e-2,
			f: func(x []float64) float64 { return float64(Single(to32(x))) },
			grad: func(x []float64) (float64, []float64) {
				g := make([]float32, len(x))
				f := SingleGrad(to32(x), g)
				return float64(f), to64(g)
			},
			jvp: func(x, v []float64) (float64, float64) {
				f, d := SingleJVP(to32(x), to32(v))
				return float64(f), float64(d)
			}},
		{name: "Poly", n: 1, lo: -2, hi: 2, f: func(x []float64) float64 { return Poly(c, x[0]) },
			grad: func(x []float64) (float64, []float64) { f, g := PolyGrad(c, x[0]); return f, []float64{g} },
			jvp:  func(x, v []float64) (float64, float64) { return PolyJVP(c, x[0], v[0]) }},
		{name: "Energy", n: 5, lo: -1, hi: 1,
			f: func(x []float64) float64 { return Energy(x[1:], x[0]) },
			grad: func(x []float64) (float64, []float64) {
				g := make([]float64, len(x)-1)
				f, dk := EnergyGrad(x[1:], g, x[0])
				return f, append([]float64{dk}, g...)
			},
			jvp: func(x, v []float64) (float64, float64) { return EnergyJVP(x[1:], v[1:], x[0], v[0]) }},
		{name: "Pow", n: 1, lo: -1.5, hi: 1.5, f: func(x []float64) float64 { return Pow(x[0], 7) },
			grad: func(x []float64) (float64, []float64) { f, g := PowGrad(x[0], 7); return f, []float64{g} },
			jvp:  func(x, v []float64) (float64, float64) { return PowJVP(x[0], v[0], 7) }},
		{name: "Scratch", n: 4, lo: -1, hi: 1,
			f: func(x []float64) float64 { return Scratch(x, []float64{0.5, -0.25, 1, 2}) },
			grad: func(x []float64) (float64, []float64) {
				g := make([]float64, len(x))
				return ScratchGrad(x, g, []float64{0.5, -0.25, 1, 2}), g
			},
			jvp: func(x, v []float64) (float64, float64) { return ScratchJVP(x, v, []float64{0.5, -0.25, 1, 2}) }},
		{name: "Area", n: 9, lo: -1, hi: 1,
			f: func(x []float64) float64 { return Area(vec(x[0:3]), vec(x[3:6]), vec(x[6:9])) },
			grad: func(x []float64) (float64, []float64) {
				f, da, db, dc := AreaGrad(vec(x[0:3]), vec(x[3:6]), vec(x[6:9]))
				return f, []float64{da.X, da.Y, da.Z, db.X, db.Y, db.Z, dc.X, dc.Y, dc.Z}
			},
			jvp: func(x, v []float64) (float64, float64) {
				return AreaJVP(vec(x[0:3]), vec(v[0:3]), vec(x[3:6]), vec(v[3:6]), vec(x[6:9]), vec(v[6:9]))
			}},
		{name: "Horner4", n: 5, lo: -1.5, hi: 1.5,
			f: func(x []float64) float64 { return Horner4([4]float64(x[1:]), x[0]) },
			grad: func(x []float64) (float64, []float64) {
				f, dc, dx := Horner4Grad([4]float64(x[1:]), x[0])
				return f, append([]float64{dx}, dc[:]...)
			},
			jvp: func(x, v []float64) (float64, float64) {
				return Horner4JVP([4]float64(x[1:]), [4]float64(v[1:]), x[0], v[0])
			}},
		{name: "Envelope", n: 3, lo: -2, hi: 2, f: func(x []float64) float64 { return Envelope(x[0], x[1], x[2]) },
			grad: func(x []float64) (float64, []float64) {
				f, a, b, c := EnvelopeGrad(x[0], x[1], x[2])
				return f, []float64{a, b, c}
			},
			jvp: func(x, v []float64) (float64, float64) { return EnvelopeJVP(x[0], v[0], x[1], v[1], x[2], v[2]) }},
		{name: "Regime", n: 2, lo: -1, hi: 3, f: func(x []float64) float64 { return Regime(x[0], x[1]) },
			grad: func(x []float64) (float64, []float64) { f, a, b := RegimeGrad(x[0], x[1]); return f, []float64{a, b} },
			jvp:  func(x, v []float64) (float64, float64) { return RegimeJVP(x[0], v[0], x[1], v[1]) }},
	}
}

func vec(x []float64) Vec { return Vec{x[0], x[1], x[2]} }

func to32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i := range x {
		y[i] = float32(x[i])
	}
	return y
}

func to64(x []float32) []float64 {
	y := make([]float64, len(x))
	for i := range x {
		y[i] = float64(x[i])
	}
	return y
}

// awayFromKinks reports whether x is safely inside a smooth piece of the
// case's function (Regime switches at integers, Clip at its bounds).
func awayFromKinks(name string, x []float64) bool {
	switch name {
	case "Regime":
		return math.Abs(x[0]-math.Round(x[0])) > 0.05
	case "Clip":
		lo, hi := x[0]-2, x[1]+1
		for _, v := range x[2:] {
			if math.Abs(v-lo) < 0.05 || math.Abs(v-hi) < 0.05 || math.Abs(v) < 0.05 {
				return false
			}
		}
	}
	return true
}

func TestGrad(t *testing.T) {
	for _, tc := range cases() {
		t.Run(tc.name, func(t *testing.T) {
			tol := tc.tol
			if tol == 0 {
				tol = 1e-6
			}
			r := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			checked := 0
			for k := 0; k < 20; k++ {
				x, v := make([]float64, tc.n), make([]float64, tc.n)
				for i := range x {
					x[i] = tc.lo + (tc.hi-tc.lo)*r.Float64()
					v[i] = 2*r.Float64() - 1
				}
				if !awayFromKinks(tc.name, x) {
					continue
				}
				checked++
				f, g := tc.grad(x)
				if want := tc.f(x); f != want {
					t.Errorf("at %v: primal result %v, want %v", x, f, want)
				}
				want := fd.Gradient(nil, tc.f, x, &fd.Settings{Formula: fd.Central, Step: tc.step})
				for i := range want {
					if !(math.Abs(g[i]-want[i]) <= tol*math.Max(1, math.Abs(want[i]))) {
						t.Errorf("at %v: ∂f/∂x[%d] = %v, want %v (tol %g)", x, i, g[i], want[i], tol)
					}
				}
				// Dot-product test: ⟨∇f(x), v⟩ equals the JVP along v.
				_, d := tc.jvp(x, v)
				dot, scale := 0.0, 0.0
				for i := range g {
					dot += g[i] * v[i]
					scale += math.Abs(g[i] * v[i])
				}
				// float32 cases (tc.tol set) round at 6e-8 in either mode.
				dotRel := 1e-12
				if tc.tol != 0 {
					dotRel = 1e-5
				}
				if !(math.Abs(d-dot) <= dotRel*scale+1e-14) {
					t.Errorf("at %v along %v: ⟨∇f, v⟩ = %v, JVP = %v", x, v, dot, d)
				}
			}
			// The points near a kink are left out; most must remain.
			if checked < 10 {
				t.Errorf("%d of 20 points away from the kinks: want at least 10 checked", checked)
			}
		})
	}
}

// TestVJP checks //gad:vjp against the JVP by the dot-product test
// ⟨w, J·v⟩ = ⟨Jᵀ·w, v⟩, for a function with two results and one writing
// an output slice.
func TestVJP(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(name string, lhs, rhs float64) {
		t.Helper()
		if !(math.Abs(lhs-rhs) <= 1e-12*(1+math.Abs(lhs))) {
			t.Errorf("%s: ⟨w, J·v⟩ = %v, ⟨Jᵀ·w, v⟩ = %v", name, lhs, rhs)
		}
	}
	for k := 0; k < 10; k++ {
		x, y := 2*r.Float64()-1, 2*r.Float64()-1
		vx, vy, wr, wt := 2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1
		rr, th, dr, dth := ToPolarJVP(x, vx, y, vy)
		r2, th2, gx, gy := ToPolarVJP(x, y, wr, wt)
		if rr != r2 || th != th2 {
			t.Errorf("ToPolar: primal results differ")
		}
		check("ToPolar", wr*dr+wt*dth, gx*vx+gy*vy)

		n := 5
		xs, v, w := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range xs {
			xs[i], v[i], w[i] = 3*r.Float64()-1.5, 2*r.Float64()-1, 2*r.Float64()-1
		}
		dst, ddst := make([]float64, n), make([]float64, n)
		SoftmaxJVP(dst, ddst, xs, v)
		lhs := 0.0
		for i := range w {
			lhs += w[i] * ddst[i]
		}
		dst2, seed, gxs := make([]float64, n), append([]float64(nil), w...), make([]float64, n)
		SoftmaxVJP(dst2, seed, xs, gxs)
		rhs := 0.0
		for i := range v {
			rhs += gxs[i] * v[i]
			if dst2[i] != dst[i] {
				t.Errorf("Softmax: primal outputs differ")
			}
			if seed[i] != 0 {
				t.Errorf("Softmax: the seed in ddst[%d] was not consumed", i)
			}
		}
		check("Softmax", lhs, rhs)
	}
}

// TestAliasPanics checks the aliasing rule: a slice passed as its own
// shadow makes the gradient panic with a message naming both.
func TestAliasPanics(t *testing.T) {
	x := []float64{1, 2, 3}
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || s != "SmoothGrad: x and xBar share memory: gadgen's gradients need them apart" {
			t.Errorf("got panic %v", r)
		}
	}()
	SmoothGrad(x, x)
}

// TestFinalState: a gradient leaves the memory it was given in the state
// the function leaves it in, though its reverse sweep rewinds it.
func TestFinalState(t *testing.T) {
	x := []float64{0.5, 2, -0.7}
	s1 := []float64{1, 0.3, -0.2}
	s2 := []float64{1, 0.3, -0.2}
	s3 := []float64{1, 0.3, -0.2}
	f := Evolve(x, s1)
	dx := make([]float64, 3)
	if g := EvolveGrad(x, dx, s2); g != f {
		t.Errorf("EvolveGrad returns %v, Evolve %v", g, f)
	}
	for i := range s1 {
		if s1[i] != s2[i] {
			t.Errorf("state after EvolveGrad: %v, after Evolve: %v", s2, s1)
			break
		}
	}
	// ⟨∇f, v⟩ against the JVP, from the same initial state.
	v := []float64{0.3, -1, 0.8}
	_, d := EvolveJVP(x, v, s3)
	if dot := dx[0]*v[0] + dx[1]*v[1] + dx[2]*v[2]; !(math.Abs(dot-d) <= 1e-12*(1+math.Abs(d))) {
		t.Errorf("⟨∇f, v⟩ = %v, JVP = %v", dot, d)
	}
}

// TestNoValue: a value=false gradient returns only the partials, and they
// are those of the function (central differences, and the JVP).
func TestNoValue(t *testing.T) {
	f := func(x []float64) float64 { return Ackley(x[1:], x[0]) }
	grad := func(x, dx []float64) float64 {
		dx[0] += AckleyGrad(x[1:], dx[1:], x[0])
		return f(x)
	}
	gadtest.Grad(t, f, grad, gadtest.Box(4, 0.5, 3))
	jvp := func(x, v []float64) (float64, float64) { return AckleyJVP(x[1:], v[1:], x[0], v[0]) }
	gadtest.DotTest(t, gadtest.ScalarJVP(jvp), gadtest.ScalarGrad(grad), gadtest.Box(4, 0.5, 3))
}
