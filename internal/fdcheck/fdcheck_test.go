package fdcheck

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// f maps ℝ³ → ℝ²: (sin(x0)·exp(x1), x0·x1·x2 + x2²).
func f(x []float64) []float64 {
	return []float64{math.Sin(x[0]) * math.Exp(x[1]), x[0]*x[1]*x[2] + x[2]*x[2]}
}

// jvp is f's exact Jacobian-vector product, optionally wrong: the second
// component is multiplied by 1+eps.
func jvp(eps float64) JVP {
	return func(x, v []float64) []float64 {
		s, c, e := math.Sin(x[0]), math.Cos(x[0]), math.Exp(x[1])
		d0 := c*e*v[0] + s*e*v[1]
		d1 := x[1]*x[2]*v[0] + x[0]*x[2]*v[1] + (x[0]*x[1]+2*x[2])*v[2]
		return []float64{d0, d1 * (1 + eps)}
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs  []string
	fatal string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
}

func (r *recorder) Helper() {}

func TestCheckAccepts(t *testing.T) {
	tests := []struct {
		name string
		f    Func
		jvp  JVP
		gen  Gen
		s    *Settings
	}{
		{"vector", f, jvp(0), Box(3, -2, 2), nil},
		{"rosenbrock", ScalarField(rosen), ScalarFieldJVP(rosenJVP), Box(6, -2, 2), nil},
		{"unary", Unary(math.Exp), UnaryJVP(func(x, dx float64) (float64, float64) { return math.Exp(x), math.Exp(x) * dx }), Box(1, -5, 5), nil},
		{"binary", Binary(math.Atan2), BinaryJVP(func(y, dy, x, dx float64) (float64, float64) {
			r := x*x + y*y
			return math.Atan2(y, x), (x*dy - y*dx) / r
		}), Box(2, 0.5, 3), nil},
		{"loose", f, jvp(1e-5), Box(3, -2, 2), &Settings{Rel: 1e-4}},
	}
	// Brown's badly scaled function, checked in scaled coordinates.
	scale := []float64{1e6, 2e-6}
	bf, bj := Scaled(ScalarField(brown), ScalarFieldJVP(brownJVP), scale)
	tests = append(tests, struct {
		name string
		f    Func
		jvp  JVP
		gen  Gen
		s    *Settings
	}{"scaled", bf, bj, Around([]float64{1, 1}, 1e-3), nil})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			Random(r, 1, 20, tt.gen, tt.f, tt.jvp, tt.s)
			for _, e := range r.errs {
				t.Error(e)
			}
		})
	}
}

// The oracle is worthless unless it rejects wrong derivatives.
func TestCheckRejects(t *testing.T) {
	x, v := []float64{0.3, -0.7, 1.1}, []float64{0.5, 0.25, -1}
	tests := []struct {
		name  string
		jvp   JVP
		s     *Settings
		index int // component that must be reported
	}{
		{"relative error 1e-4", jvp(1e-4), nil, 1},
		{"relative error 1e-5 under tight tolerance", jvp(1e-5), &Settings{Rel: 1e-7}, 1},
		{"sign", func(x, v []float64) []float64 {
			d := jvp(0)(x, v)
			return []float64{-d[0], d[1]}
		}, nil, 0},
		{"transposed direction", func(x, v []float64) []float64 {
			return jvp(0)(x, []float64{v[1], v[0], v[2]})
		}, nil, 0},
		{"NaN", func(x, v []float64) []float64 { return []float64{math.NaN(), jvp(0)(x, v)[1]} }, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(f, tt.jvp, x, v, tt.s)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Check accepted a wrong derivative: err = %v", err)
			}
			found := false
			for _, m := range e.Mismatches {
				found = found || m.Index == tt.index
			}
			if !found {
				t.Errorf("component %d not reported: %v", tt.index, err)
			}
			msg := err.Error()
			for _, want := range []string{fmt.Sprintf("component %d", tt.index), "got", "want", "tol", "at x =", "along v ="} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

func TestCheckReportsOnlyBadComponents(t *testing.T) {
	err := Check(f, jvp(1e-3), []float64{0.3, -0.7, 1.1}, []float64{1, 1, 1}, nil)
	var e *Error
	if !errors.As(err, &e) || len(e.Mismatches) != 1 || e.Mismatches[0].Index != 1 {
		t.Fatalf("got %v, want exactly component 1", err)
	}
	m := e.Mismatches[0]
	if !(math.Abs(m.Got-m.Want) > m.Tol) {
		t.Errorf("reported mismatch is within its tolerance: %v", m)
	}
}

func TestCheckProblems(t *testing.T) {
	x, v := []float64{0.3, -0.7, 1.1}, []float64{0.5, 0.25, -1}
	tests := []struct {
		name string
		f    Func
		jvp  JVP
		x, v []float64
		want string
	}{
		{"modifies x", f, func(x, v []float64) []float64 { d := jvp(0)(x, v); x[0] = 9; return d }, x, v, "modified x"},
		{"modifies v", f, func(x, v []float64) []float64 { d := jvp(0)(x, v); v[2] = 9; return d }, x, v, "modified v"},
		{"too short", f, func(x, v []float64) []float64 { return jvp(0)(x, v)[:1] }, x, v, "returned 1 components, f has 2"},
		{"lengths", f, jvp(0), x, v[:2], "len(x) = 3 but len(v) = 2"},
		{"undefined", Unary(math.Sqrt), UnaryJVP(func(x, dx float64) (float64, float64) {
			return math.Sqrt(x), dx / (2 * math.Sqrt(x))
		}), []float64{-1}, []float64{1}, "not smooth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.f, tt.jvp, tt.x, tt.v, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestTestReports(t *testing.T) {
	r := &recorder{}
	Random(r, 7, 5, Box(3, -1, 1), f, jvp(1e-3), nil)
	if len(r.errs) != 5 {
		t.Fatalf("got %d failures, want 5 (one per point): %q", len(r.errs), r.errs)
	}
	if !strings.HasPrefix(r.errs[3], "point 3: gadtest: J(x)·v") {
		t.Errorf("failure does not name the point: %q", r.errs[3])
	}

	r = &recorder{}
	Random(r, 7, 3, Box(3, -1, 1), f, func(x, v []float64) []float64 { panic("boom") }, nil)
	if len(r.errs) != 3 || !strings.Contains(r.errs[0], "panic: boom") {
		t.Errorf("a panicking JVP was not reported per point: %q", r.errs)
	}

	// No points: a failure, not a pass that checked nothing.
	r = &recorder{}
	Random(r, 7, 0, Box(3, -1, 1), f, jvp(0), nil)
	if !strings.Contains(r.fatal, "no points") {
		t.Errorf("no points: got fatal %q, want a failure", r.fatal)
	}
}

func TestDirectional(t *testing.T) {
	r := NewRand(3)
	for range 20 {
		x := Uniform(r, 8, -2, 2)
		v := Direction(r, 8)
		got := Directional(ScalarField(rosen), x, v, 0)[0]
		_, want := rosenJVP(x, v)
		if !(math.Abs(got-want) <= 1e-7*math.Abs(want)+1e-7) {
			t.Errorf("Directional(rosen) = %v, want %v", got, want)
		}
	}
	if d := Directional(f, []float64{1, 2, 3}, []float64{0, 0, 0}, 0); d[0] != 0 || d[1] != 0 {
		t.Errorf("derivative along 0 = %v, want [0 0]", d)
	}
}

func TestPointsReproducible(t *testing.T) {
	a := Points(42, 3, Box(4, -1, 1))
	b := Points(42, 3, Box(4, -1, 1))
	c := Points(43, 3, Box(4, -1, 1))
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different points:\n%v\n%v", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("different seeds, same points: %v", a)
	}
	for _, p := range Points(1, 50, Around([]float64{-10, 0, 1e3}, 0.01)) {
		if !(math.Abs(p.X[0]+10) <= 0.1) || !(math.Abs(p.X[1]) <= 0.01) || !(math.Abs(p.X[2]-1e3) <= 10) {
			t.Errorf("Around strayed: %v", p.X)
		}
	}
}

func TestClose(t *testing.T) {
	r := &recorder{}
	Close(r, "y", []float64{1, 2, 3}, []float64{1, 2 + 1e-12, 3.1}, 1e-10)
	if len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "y[2]: got 3, want 3.1") {
		t.Errorf("got %q", r.errs)
	}
	if Dot([]float64{1, 2}, []float64{3, 4}) != 11 {
		t.Error("Dot")
	}
}

func rosen(x []float64) (sum float64) {
	for i := 0; i < len(x)-1; i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		sum += a*a + 100*b*b
	}
	return sum
}

func rosenJVP(x, dx []float64) (sum, dsum float64) {
	for i := 0; i < len(x)-1; i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		da, db := -dx[i], dx[i+1]-2*x[i]*dx[i]
		sum += a*a + 100*b*b
		dsum += 2*a*da + 200*b*db
	}
	return sum, dsum
}

// brown is gonum's BrownBadlyScaled, minimal at (1e6, 2e-6).
func brown(x []float64) float64 {
	f1, f2, f3 := x[0]-1e6, x[1]-2e-6, x[0]*x[1]-2
	return f1*f1 + f2*f2 + f3*f3
}

func brownJVP(x, dx []float64) (float64, float64) {
	f1, f2, f3 := x[0]-1e6, x[1]-2e-6, x[0]*x[1]-2
	df3 := dx[0]*x[1] + x[0]*dx[1]
	return f1*f1 + f2*f2 + f3*f3, 2*f1*dx[0] + 2*f2*dx[1] + 2*f3*df3
}

// wavy is sin(x0·1e-6) + sin(x1·1e6), badly scaled near (1e6, 2e-6).
func wavy(x []float64) float64 { return math.Sin(x[0]*1e-6) + math.Sin(x[1]*1e6) }

func wavyJVP(x, dx []float64) (float64, float64) {
	return wavy(x), math.Cos(x[0]*1e-6)*1e-6*dx[0] + math.Cos(x[1]*1e6)*1e6*dx[1]
}

func TestScaledUnscaledFails(t *testing.T) {
	// The same check without the change of variables is wrong by orders
	// of magnitude: the reason Scaled exists. (Brown's function is a
	// polynomial of degree 4, on which the extrapolated central
	// difference is exact; a sine is not.)
	center, scale := []float64{1e6, 2e-6}, []float64{1e6, 2e-6}
	p := Points(1, 1, Around(center, 1e-3))[0]
	if err := Check(ScalarField(wavy), ScalarFieldJVP(wavyJVP), p.X, p.V, nil); err == nil {
		t.Errorf("unscaled check of a badly scaled function passed at %v", p.X)
	}
	f, jvp := Scaled(ScalarField(wavy), ScalarFieldJVP(wavyJVP), scale)
	Random(t, 1, 5, Around([]float64{1, 1}, 1e-3), f, jvp, nil)
}

func TestRun(t *testing.T) {
	Run(t, []Case{
		{Name: "rosenbrock", F: ScalarField(rosen), JVP: ScalarFieldJVP(rosenJVP), Gen: Box(4, -2, 2)},
		{Name: "vector", F: f, JVP: jvp(0), Gen: Box(3, -1, 1), N: 3, Settings: &Settings{Rel: 1e-8}},
	})
	if Seed("a") == Seed("b") {
		t.Error("Seed ignores the name")
	}
}
