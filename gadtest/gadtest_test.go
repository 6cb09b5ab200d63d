package gadtest_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

// recorder is a gadtest.TB that records reports instead of failing.
type recorder struct {
	errs  []string
	fatal string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
}

func (r *recorder) String() string { return strings.Join(r.errs, "\n") }

// rosen is the Rosenbrock function, with its derivatives in the three
// shapes, each optionally wrong: bad(i, d) returns the i-th partial
// derivative d as the derivative code computes it.
func rosen(x []float64) (sum float64) {
	for i := 0; i < len(x)-1; i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		sum += a*a + 100*b*b
	}
	return sum
}

func rosenGradient(x []float64) []float64 {
	g := make([]float64, len(x))
	for i := 0; i < len(x)-1; i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		g[i] += -2*a - 400*b*x[i]
		g[i+1] += 200 * b
	}
	return g
}

type bug func(i int, d float64) float64

func exact(_ int, d float64) float64 { return d }

// off scales the partial derivative k by 1+eps.
func off(k int, eps float64) bug {
	return func(i int, d float64) float64 {
		if i == k {
			return d * (1 + eps)
		}
		return d
	}
}

func rosenJVP(b bug) func(x, dx []float64) (float64, float64) {
	return func(x, dx []float64) (float64, float64) {
		g := rosenGradient(x)
		d := 0.0
		for i := range g {
			d += b(i, g[i]) * dx[i]
		}
		return rosen(x), d
	}
}

func rosenGrad(b bug) func(x, dx []float64) float64 {
	return func(x, dx []float64) float64 {
		for i, gi := range rosenGradient(x) {
			dx[i] += b(i, gi)
		}
		return rosen(x)
	}
}

func rosenGonum(b bug) func(grad, x []float64) {
	return func(grad, x []float64) {
		for i, gi := range rosenGradient(x) {
			grad[i] = b(i, gi)
		}
	}
}

// vec maps ℝ³ → ℝ²: (sin(x0)·exp(x1), x0·x1·x2 + x2²).
func vec(x []float64) []float64 {
	return []float64{math.Sin(x[0]) * math.Exp(x[1]), x[0]*x[1]*x[2] + x[2]*x[2]}
}

// vecJac is vec's Jacobian, row by row, with entry (1, 2) scaled by
// 1+eps.
func vecJac(x []float64, eps float64) [2][3]float64 {
	s, c, e := math.Sin(x[0]), math.Cos(x[0]), math.Exp(x[1])
	return [2][3]float64{
		{c * e, s * e, 0},
		{x[1] * x[2], x[0] * x[2], (x[0]*x[1] + 2*x[2]) * (1 + eps)},
	}
}

func vecJVP(eps float64) gadtest.JVPFunc {
	return func(x, v []float64) ([]float64, []float64) {
		j := vecJac(x, eps)
		dy := make([]float64, 2)
		for r := range 2 {
			for c := range 3 {
				dy[r] += j[r][c] * v[c]
			}
		}
		return vec(x), dy
	}
}

func vecVJP(eps float64) gadtest.VJPFunc {
	return func(x, w, dx []float64) []float64 {
		j := vecJac(x, eps)
		for r := range 2 {
			for c := range 3 {
				dx[c] += j[r][c] * w[r]
			}
		}
		return vec(x)
	}
}

func TestAccepts(t *testing.T) {
	logsum := func(x []float64) float64 {
		s := 0.0
		for _, xi := range x {
			s += math.Log(xi)
		}
		return s
	}
	logsumGrad := func(x, dx []float64) float64 {
		for i, xi := range x {
			dx[i] += 1 / xi
		}
		return logsum(x)
	}
	tests := []struct {
		name  string
		check func(tb gadtest.TB)
	}{
		{"JVP", func(tb gadtest.TB) { gadtest.JVP(tb, rosen, rosenJVP(exact), gadtest.Box(6, -2, 2)) }},
		{"JVP/n=1", func(tb gadtest.TB) { gadtest.JVP(tb, rosen, rosenJVP(exact), gadtest.Dim(1)) }},
		{"Grad", func(tb gadtest.TB) { gadtest.Grad(tb, rosen, rosenGrad(exact), gadtest.Box(6, -2, 2)) }},
		{"Grad/log", func(tb gadtest.TB) { gadtest.Grad(tb, logsum, logsumGrad, gadtest.Box(4, 0.1, 3)) }},
		{"Grad/large", func(tb gadtest.TB) {
			gadtest.Grad(tb, rosen, rosenGrad(exact), gadtest.Around([]float64{1e3, 1e6, -5e2}, 0.01))
		}},
		{"GonumGrad", func(tb gadtest.TB) { gadtest.GonumGrad(tb, rosen, rosenGonum(exact), gadtest.Dim(5)) }},
		{"VecJVP", func(tb gadtest.TB) { gadtest.VecJVP(tb, vec, vecJVP(0), gadtest.Box(3, -2, 2)) }},
		{"VecVJP", func(tb gadtest.TB) { gadtest.VecVJP(tb, vec, vecVJP(0), gadtest.Box(3, -2, 2)) }},
		{"DotTest", func(tb gadtest.TB) { gadtest.DotTest(tb, vecJVP(0), vecVJP(0), gadtest.Box(3, -2, 2)) }},
		{"DotTest/scalar", func(tb gadtest.TB) {
			gadtest.DotTest(tb, gadtest.ScalarJVP(rosenJVP(exact)), gadtest.ScalarGrad(rosenGrad(exact)), gadtest.Dim(20))
		}},
		{"loose", func(tb gadtest.TB) {
			gadtest.VecJVP(tb, vec, vecJVP(1e-5), gadtest.Box(3, -2, 2), gadtest.Rel(1e-4))
		}},
		{"At", func(tb gadtest.TB) {
			gadtest.Grad(tb, rosen, rosenGrad(exact), gadtest.At([]float64{-1.2, 1}, []float64{1, 1, 1}))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			tt.check(r)
			if r.fatal != "" || len(r.errs) > 0 {
				t.Errorf("a right derivative failed: %s%s", r.fatal, r)
			}
		})
	}
}

// A check is worthless unless it rejects wrong derivatives, and its report
// must say what is wrong.
func TestRejects(t *testing.T) {
	box := gadtest.Box(4, -2, 2)
	tests := []struct {
		name  string
		check func(tb gadtest.TB)
		want  []string // in every report
		not   []string // in no report
	}{
		{"JVP/partial", func(tb gadtest.TB) { gadtest.JVP(tb, rosen, rosenJVP(off(2, 1e-3)), box) },
			[]string{"gadtest: J(x)·v", "∇f(x)·v: got", "want", "tol", "wrong partial derivatives", "∂f/∂x[2]: got", "at x = [", "along v = ["},
			[]string{"∂f/∂x[0]", "∂f/∂x[1]", "∂f/∂x[3]", "f(x):"}},
		{"JVP/primal", func(tb gadtest.TB) {
			gadtest.JVP(tb, rosen, func(x, dx []float64) (float64, float64) { f, d := rosenJVP(exact)(x, dx); return f + 1e-6, d }, box)
		}, []string{"f(x): got"}, []string{"∇f(x)·v", "∂f"}},
		{"JVP/rel 1e-5 under Rel(1e-7)", func(tb gadtest.TB) {
			gadtest.JVP(tb, rosen, rosenJVP(off(1, 1e-5)), box, gadtest.Rel(1e-7))
		}, []string{"∇f(x)·v: got"}, nil},
		{"Grad/component", func(tb gadtest.TB) { gadtest.Grad(tb, rosen, rosenGrad(off(1, 1e-4)), box) },
			[]string{"gadtest: ∇f(x)", "∂f/∂x[1]: got", "at x = ["},
			[]string{"∂f/∂x[0]", "∂f/∂x[2]", "∂f/∂x[3]", "along v", "with w"}},
		{"Grad/sign", func(tb gadtest.TB) {
			gadtest.Grad(tb, rosen, rosenGrad(func(i int, d float64) float64 { return -d }), box)
		},
			[]string{"∂f/∂x[0]", "∂f/∂x[3]"}, nil},
		{"Grad/overwrites", func(tb gadtest.TB) {
			gadtest.Grad(tb, rosen, func(x, dx []float64) float64 { copy(dx, rosenGradient(x)); return rosen(x) }, box)
		}, []string{"grad must add its result to dx, not overwrite it", "dx[0] (held"}, []string{"∂f/∂x"}},
		{"Grad/value", func(tb gadtest.TB) {
			gadtest.Grad(tb, rosen, func(x, dx []float64) float64 { rosenGrad(exact)(x, dx); return 0 }, box)
		}, []string{"f(x): got 0, want"}, []string{"∂f/∂x"}},
		{"GonumGrad/accumulates", func(tb gadtest.TB) {
			gadtest.GonumGrad(tb, rosen, func(grad, x []float64) {
				for i, g := range rosenGradient(x) {
					grad[i] += g
				}
			}, box)
		}, []string{"must overwrite every element", "∂f/∂x[0]: got NaN"}, nil},
		{"GonumGrad/unwritten", func(tb gadtest.TB) {
			gadtest.GonumGrad(tb, rosen, func(grad, x []float64) { copy(grad[:3], rosenGradient(x)) }, box)
		}, []string{"∂f/∂x[3]: got NaN"}, []string{"∂f/∂x[0]", "∂f/∂x[2]"}},
		{"VecJVP", func(tb gadtest.TB) { gadtest.VecJVP(tb, vec, vecJVP(1e-4), gadtest.Box(3, -2, 2)) },
			[]string{"component 1 of J·v: got", "∂f[1]/∂x[2]: got"}, []string{"component 0", "∂f[0]", "∂f[1]/∂x[0]"}},
		{"VecVJP", func(tb gadtest.TB) { gadtest.VecVJP(tb, vec, vecVJP(1e-4), gadtest.Box(3, -2, 2)) },
			[]string{"gadtest: Jᵀ(x)·w", "component 2 of Jᵀ·w: got", "with w = ["}, []string{"component 0", "component 1"}},
		{"VecVJP/overwrites", func(tb gadtest.TB) {
			gadtest.VecVJP(tb, vec, func(x, w, dx []float64) []float64 { clear(dx); return vecVJP(0)(x, w, dx) }, gadtest.Box(3, -2, 2))
		}, []string{"vjp must add its result to dx"}, nil},
		{"DotTest", func(tb gadtest.TB) { gadtest.DotTest(tb, vecJVP(0), vecVJP(1e-6), gadtest.Box(3, -2, 2)) },
			[]string{"⟨v, Jᵀ·w⟩ (vjp) against ⟨J·v, w⟩ (jvp): got", "∂f[1]/∂x[2] by vjp against jvp"}, []string{"∂f[0]", "∂f[1]/∂x[0]"}},
		{"DotTest/transposed", func(tb gadtest.TB) {
			gadtest.DotTest(tb, vecJVP(0), func(x, w, dx []float64) []float64 {
				return vecVJP(0)(x, w, dx[:0:0]) // wrong: writes nothing
			}, gadtest.Box(3, -2, 2))
		}, []string{"⟨v, Jᵀ·w⟩"}, nil},
		{"panic", func(tb gadtest.TB) {
			gadtest.JVP(tb, rosen, func(x, dx []float64) (float64, float64) { panic("boom") }, box)
		}, []string{"panic: boom", "gadtest_test.TestRejects"}, nil},
		{"panic in f", func(tb gadtest.TB) {
			gadtest.VecVJP(tb, func(x []float64) []float64 { panic("f boom") }, vecVJP(0), gadtest.Box(3, -2, 2))
		}, []string{"panic: f boom"}, nil},
		{"panic in jvp", func(tb gadtest.TB) {
			gadtest.DotTest(tb, func(x, v []float64) ([]float64, []float64) { panic("jvp boom") }, vecVJP(0), gadtest.Box(3, -2, 2))
		}, []string{"panic: jvp boom"}, nil},
		{"modifies x", func(tb gadtest.TB) {
			gadtest.Grad(tb, rosen, func(x, dx []float64) float64 { x[0] = 9; return 0 }, box)
		}, []string{"grad modified x"}, nil},
		{"modifies v", func(tb gadtest.TB) {
			gadtest.JVP(tb, rosen, func(x, dx []float64) (float64, float64) { dx[0] = 9; return 0, 0 }, box)
		}, []string{"jvp modified v"}, nil},
		{"modifies w", func(tb gadtest.TB) {
			gadtest.VecVJP(tb, vec, func(x, w, dx []float64) []float64 { w[0] = 9; return nil }, gadtest.Box(3, -2, 2))
		}, []string{"vjp modified w"}, nil},
		{"length", func(tb gadtest.TB) {
			gadtest.VecJVP(tb, vec, func(x, v []float64) ([]float64, []float64) { y, d := vecJVP(0)(x, v); return y, d[:1] }, gadtest.Box(3, -2, 2))
		}, []string{"jvp returned 1 components, f has 2"}, nil},
		{"undefined", func(tb gadtest.TB) {
			gadtest.Grad(tb, func(x []float64) float64 { return math.Sqrt(x[0]) }, func(x, dx []float64) float64 {
				dx[0] += 0.5 / math.Sqrt(x[0])
				return math.Sqrt(x[0])
			}, gadtest.At([]float64{0}))
		}, []string{"not smooth"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			tt.check(r)
			if r.fatal != "" {
				t.Fatalf("fatal: %s", r.fatal)
			}
			if len(r.errs) == 0 {
				t.Fatal("a wrong derivative passed")
			}
			for _, e := range r.errs {
				if !strings.HasPrefix(e, "point ") {
					t.Errorf("report does not name the point: %q", e)
				}
				for _, w := range tt.want {
					if !strings.Contains(e, w) {
						t.Errorf("report lacks %q:\n%s", w, e)
					}
				}
				for _, w := range tt.not {
					if strings.Contains(e, w) {
						t.Errorf("report has %q:\n%s", w, e)
					}
				}
			}
		})
	}
}

// The options reach the comparisons.
func TestOptions(t *testing.T) {
	box := gadtest.Box(3, -2, 2)
	offValue := func(x, v []float64) ([]float64, []float64) {
		y, d := vecJVP(0)(x, v)
		return []float64{y[0] * (1 + 1e-9), y[1]}, d
	}
	tests := []struct {
		name string
		jvp  gadtest.JVPFunc
		opts []gadtest.Option
		fail bool
	}{
		{"default", vecJVP(0), nil, false},
		{"Step(0.3)", vecJVP(0), []gadtest.Option{gadtest.Step(0.3)}, true},
		{"Step(0.3), Rel(0.1)", vecJVP(0), []gadtest.Option{gadtest.Step(0.3), gadtest.Rel(0.1)}, false},
		{"With", vecJVP(0), []gadtest.Option{gadtest.With(gadtest.Settings{Step: 0.3, Rel: 0.1})}, false},
		{"Rel(1e-3)", vecJVP(1e-2), []gadtest.Option{gadtest.Rel(1e-3)}, true},
		{"Abs(1)", vecJVP(1e-2), []gadtest.Option{gadtest.Abs(1)}, false},
		{"value off by 1e-9", offValue, nil, true},
		{"PrimalRel(1e-8)", offValue, []gadtest.Option{gadtest.PrimalRel(1e-8)}, false},
		{"PrimalRel(-1)", offValue, []gadtest.Option{gadtest.PrimalRel(-1)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			gadtest.VecJVP(r, vec, tt.jvp, append([]gadtest.Option{box}, tt.opts...)...)
			if failed := len(r.errs) > 0; failed != tt.fail {
				t.Errorf("failed = %v, want %v\n%s", failed, tt.fail, r)
			}
		})
	}
}

func TestEveryPointReported(t *testing.T) {
	r := &recorder{}
	gadtest.Grad(t, rosen, rosenGrad(exact), gadtest.Dim(3)) // passes on t
	gadtest.Grad(r, rosen, rosenGrad(off(0, 1e-3)), gadtest.Box(3, -2, 2), gadtest.Points(5))
	if len(r.errs) != 5 {
		t.Fatalf("got %d reports, want 5:\n%s", len(r.errs), r)
	}
	for i, e := range r.errs {
		if want := fmt.Sprintf("point %d: gadtest: ∇f(x)\n\t∂f/∂x[0]: got ", i); !strings.HasPrefix(e, want) {
			t.Errorf("report %d does not start with %q:\n%s", i, want, e)
		}
	}
}

func TestNoPoints(t *testing.T) {
	r := &recorder{}
	gadtest.JVP(r, rosen, rosenJVP(exact), gadtest.Points(3))
	if !strings.Contains(r.fatal, "gadtest.JVP: no points") || len(r.errs) > 0 {
		t.Errorf("got fatal %q, errors %q", r.fatal, r.errs)
	}
	r = &recorder{}
	gadtest.Grad(r, rosen, rosenGrad(exact), gadtest.Dim(2), gadtest.Points(0))
	if !strings.Contains(r.fatal, "gadtest.Grad: Points(0)") {
		t.Errorf("Points(0): got fatal %q", r.fatal)
	}
	r = &recorder{}
	gadtest.Grad(r, rosen, rosenGrad(exact), gadtest.At())
	if !strings.Contains(r.fatal, "gadtest.Grad: At(): no points") {
		t.Errorf("At(): got fatal %q", r.fatal)
	}
	r = &recorder{}
	gadtest.HVP(r, rosen, func(x, v, hv []float64) float64 { return rosen(x) }, gadtest.Dim(0))
	if !strings.Contains(r.fatal, "gadtest.HVP: point 0 has no inputs") {
		t.Errorf("Dim(0): got fatal %q", r.fatal)
	}
}

// TestNothingToCheck: a check at a point where there is no derivative to
// compare (no inputs, or no outputs) fails instead of passing.
func TestNothingToCheck(t *testing.T) {
	none := func(x []float64) []float64 { return nil }
	noneJVP := func(x, v []float64) ([]float64, []float64) { return nil, nil }
	noneVJP := func(x, w, dx []float64) []float64 { return nil }
	x := []float64{1, 2}
	for name, err := range map[string]error{
		"CheckJVP, no inputs":  gadtest.CheckJVP(vec, vecJVP(0), nil, nil, nil),
		"CheckJVP, no outputs": gadtest.CheckJVP(none, noneJVP, x, x, nil),
		"CheckVJP, no inputs":  gadtest.CheckVJP(vec, vecVJP(0), nil, []float64{1, 1}, nil),
		"CheckVJP, no outputs": gadtest.CheckVJP(none, noneVJP, x, nil, nil),
		"CheckDot, no inputs":  gadtest.CheckDot(vecJVP(0), vecVJP(0), nil, nil, []float64{1, 1}, nil),
		"CheckDot, no outputs": gadtest.CheckDot(noneJVP, noneVJP, x, x, nil, nil),
		"CheckTaylor, no inputs": gadtest.CheckTaylor(rosen, func(x, v []float64) []float64 { return []float64{rosen(x), 0} },
			nil, nil, nil),
	} {
		if err == nil || !strings.Contains(err.Error(), "there is no derivative to check") {
			t.Errorf("%s: got %v, want an error saying there is nothing to check", name, err)
		}
	}
}

// TestSecondOrderNaN: a Hessian against finite differences that are NaN
// (f undefined near x) fails, as does a Laplacian.
func TestSecondOrderNaN(t *testing.T) {
	f := func(x []float64) float64 {
		if x[0] != 0.5 {
			return math.NaN()
		}
		return 1
	}
	r := &recorder{}
	gadtest.Hessian(r, f, func(x, h []float64) float64 { h[0] = 0; return 1 }, gadtest.At([]float64{0.5}))
	if len(r.errs) != 1 {
		t.Errorf("Hessian: got %d reports, want 1: %s", len(r.errs), r)
	}
	r = &recorder{}
	gadtest.Laplacian(r, f, func(x []float64) (float64, float64) { return 1, 0 }, gadtest.At([]float64{0.5}))
	if len(r.errs) != 1 {
		t.Errorf("Laplacian: got %d reports, want 1: %s", len(r.errs), r)
	}
}

// points returns the points at which Grad evaluates the gradient.
func points(opts ...gadtest.Option) [][]float64 {
	var pts [][]float64
	gadtest.GonumGrad(&recorder{}, rosen, func(grad, x []float64) {
		pts = append(pts, slices.Clone(x))
		rosenGonum(exact)(grad, x)
	}, opts...)
	return pts
}

func TestPoints(t *testing.T) {
	a := points(gadtest.Dim(4))
	if len(a) != 8 {
		t.Errorf("default: %d points, want 8", len(a))
	}
	if b := points(gadtest.Dim(4)); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different points:\n%v\n%v", a, b)
	}
	if c := points(gadtest.Dim(4), gadtest.Seed(2)); fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("different seeds, same points: %v", a)
	}
	for _, x := range a {
		for _, xi := range x {
			if !(-1 <= xi && xi < 1) {
				t.Errorf("Dim(4) drew %v", x)
			}
		}
	}
	for _, x := range points(gadtest.Box(2, 3, 4), gadtest.Points(20)) {
		if len(x) != 2 || x[0] < 3 || x[0] >= 4 || x[1] < 3 || x[1] >= 4 {
			t.Errorf("Box(2, 3, 4) drew %v", x)
		}
	}
	for _, x := range points(gadtest.Around([]float64{-10, 0, 1e3}, 0.01), gadtest.Points(50)) {
		if !(math.Abs(x[0]+10) <= 0.1) || !(math.Abs(x[1]) <= 0.01) || !(math.Abs(x[2]-1e3) <= 10) {
			t.Errorf("Around strayed: %v", x)
		}
	}
	at := [][]float64{{1, 2}, {3, 4, 5}}
	if got := points(gadtest.At(at...), gadtest.Points(5)); fmt.Sprint(got) != fmt.Sprint(at) {
		t.Errorf("At: checked at %v, want %v", got, at)
	}
	// The last domain given wins.
	if got := points(gadtest.At(at...), gadtest.Dim(1)); len(got) != 8 || len(got[0]) != 1 {
		t.Errorf("At then Dim: checked at %v", got)
	}
	custom := gadtest.Domain(func(r *rand.Rand) []float64 { return []float64{7, r.Float64()} })
	for _, x := range points(custom, gadtest.Points(2)) {
		if x[0] != 7 {
			t.Errorf("Domain: checked at %v", x)
		}
	}
}

func TestCheckJVP(t *testing.T) {
	x, v := []float64{0.3, -0.7, 1.1}, []float64{0.5, 0.25, -1}
	if err := gadtest.CheckJVP(vec, vecJVP(0), x, v, nil); err != nil {
		t.Fatalf("right JVP: %v", err)
	}
	err := gadtest.CheckJVP(vec, vecJVP(1e-3), x, v, nil)
	var e *gadtest.Error
	if !errors.As(err, &e) || len(e.Mismatches) != 1 || e.Mismatches[0].Index != 1 {
		t.Fatalf("got %v, want exactly component 1", err)
	}
	if m := e.Mismatches[0]; !(math.Abs(m.Got-m.Want) > m.Tol) {
		t.Errorf("reported mismatch is within its tolerance: %v", m)
	}
	if len(e.Partials) != 1 || e.Partials[0].Name != "∂f[1]/∂x[2]" || e.Partials[0].Index != 2 {
		t.Errorf("partials: got %v, want ∂f[1]/∂x[2]", e.Partials)
	}
	// The error's tolerance is Rel·max(|got|, |want|) + Abs + noise.
	m := e.Mismatches[0]
	if base := 1e-6*math.Max(math.Abs(m.Got), math.Abs(m.Want)) + 1e-9; m.Tol < base || m.Tol > 1.1*base {
		t.Errorf("tol = %g, want about %g", m.Tol, base)
	}
	// Abs < 0: no floor, so a zero derivative must be exact.
	zero := func(x []float64) []float64 { return []float64{0} }
	tiny := func(x, v []float64) ([]float64, []float64) { return nil, []float64{1e-12} }
	if err := gadtest.CheckJVP(zero, tiny, x, v, nil); err != nil {
		t.Errorf("1e-12 against 0 with the default floor: %v", err)
	}
	if err := gadtest.CheckJVP(zero, tiny, x, v, &gadtest.Settings{Abs: -1}); err == nil {
		t.Error("1e-12 against 0 without floor passed")
	}
}

func TestCheckVJPAndDot(t *testing.T) {
	x, v, w := []float64{0.3, -0.7, 1.1}, []float64{0.5, 0.25, -1}, []float64{0.75, -0.5}
	if err := gadtest.CheckVJP(vec, vecVJP(0), x, w, nil); err != nil {
		t.Errorf("right VJP: %v", err)
	}
	if err := gadtest.CheckDot(vecJVP(0), vecVJP(0), x, v, w, nil); err != nil {
		t.Errorf("right dot-product test: %v", err)
	}
	if err := gadtest.CheckVJP(vec, vecVJP(0), x, w[:1], nil); err == nil || !strings.Contains(err.Error(), "len(w) = 1 but f has 2 outputs") {
		t.Errorf("short w: %v", err)
	}
	// The dot test is tight: a relative error of 1e-8 in one entry fails.
	if err := gadtest.CheckDot(vecJVP(0), vecVJP(1e-8), x, v, w, nil); err == nil {
		t.Error("dot-product test missed a relative error of 1e-8")
	}
	err := gadtest.CheckDot(vecJVP(0), vecVJP(1e-8), x, v, w, &gadtest.Settings{Rel: 1e-6})
	if err != nil {
		t.Errorf("Rel: 1e-6 not applied: %v", err)
	}
}

func TestDirectional(t *testing.T) {
	r := gadtest.NewRand(3)
	for range 20 {
		x := gadtest.Uniform(r, 8, -2, 2)
		v := gadtest.Direction(r, 8)
		got := gadtest.Directional(gadtest.Scalar(rosen), x, v, 0)[0]
		_, want := rosenJVP(exact)(x, v)
		if !(math.Abs(got-want) <= 1e-7*math.Abs(want)+1e-7) {
			t.Errorf("Directional(rosen) = %v, want %v", got, want)
		}
	}
	if d := gadtest.Directional(vec, []float64{1, 2, 3}, []float64{0, 0, 0}, 0); d[0] != 0 || d[1] != 0 {
		t.Errorf("derivative along 0 = %v, want [0 0]", d)
	}
}

func TestCloseAndDot(t *testing.T) {
	r := &recorder{}
	gadtest.Close(r, "y", []float64{1, 2, 3}, []float64{1, 2 + 1e-12, 3.1}, 1e-10)
	if len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "y[2]: got 3, want 3.1") {
		t.Errorf("got %q", r.errs)
	}
	r = &recorder{}
	gadtest.Close(r, "y", []float64{1}, []float64{1, 2}, 1e-10)
	if len(r.errs) != 1 || r.errs[0] != "y: got 1 values, want 2" {
		t.Errorf("got %q", r.errs)
	}
	if gadtest.Dot([]float64{1, 2}, []float64{3, 4}) != 11 {
		t.Error("Dot")
	}
}

func TestScalarGradSeed(t *testing.T) {
	vjp := gadtest.ScalarGrad(rosenGrad(exact))
	x := []float64{0.5, -0.25, 1}
	dx := []float64{1, 1, 1}
	y := vjp(x, []float64{-2}, dx)
	g := rosenGradient(x)
	if y[0] != rosen(x) {
		t.Errorf("value %v, want %v", y[0], rosen(x))
	}
	for i := range dx {
		if want := 1 - 2*g[i]; !(math.Abs(dx[i]-want) <= 1e-12*math.Abs(want)) {
			t.Errorf("dx[%d] = %v, want %v", i, dx[i], want)
		}
	}
}

// TestFloat32Scalar: a function of []float64 that computes in float32
// fails the default checks (its central differences at float64's step are
// its round-off) and passes them with Float32(); a gradient off by 1 % still
// fails with Float32().
func TestFloat32Scalar(t *testing.T) {
	f := func(x []float64) float64 {
		var a float32
		for _, v := range x {
			a += float32(v) * float32(v) * float32(v)
		}
		return float64(a)
	}
	gradBy := func(scale float64) func(x, xBar []float64) float64 {
		return func(x, xBar []float64) float64 {
			for i, v := range x {
				xBar[i] += scale * 3 * float64(float32(v)*float32(v))
			}
			return f(x)
		}
	}
	jvp := func(x, dx []float64) (float64, float64) {
		var d float32
		for i, v := range x {
			d += 3 * float32(v) * float32(v) * float32(dx[i])
		}
		return f(x), float64(d)
	}
	var r recorder
	gadtest.Grad(&r, f, gradBy(1), gadtest.Dim(5))
	if len(r.errs) == 0 {
		t.Error("the default check passed a function computing in float32: its differences are its round-off")
	}
	gadtest.Grad(t, f, gradBy(1), gadtest.Dim(5), gadtest.Float32())
	gadtest.JVP(t, f, jvp, gadtest.Dim(5), gadtest.Float32())
	gadtest.DotTest(t, gadtest.ScalarJVP(jvp), gadtest.ScalarGrad(gradBy(1)), gadtest.Dim(5), gadtest.Float32())
	r = recorder{}
	gadtest.Grad(&r, f, gradBy(1.01), gadtest.Dim(5), gadtest.Float32())
	if len(r.errs) == 0 {
		t.Error("Float32() passed a gradient off by 1 %")
	}
}
