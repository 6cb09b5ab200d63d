package cnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

const f64, f32 = tensorops.Float64, tensorops.Float32

// Tolerances: float64 derivatives against central differences (step
// 1e-5) relative to max(1, |want|); float32 derivatives, computed in
// float32, against the float64 differences at the same (rounded) point.
func tol(dt tensorops.DType) float64 {
	if dt == f32 {
		return 2e-4
	}
	return 1e-7
}

func close(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s: got %v, want %v (tolerance %g)", what, got, want, tol)
	}
}

// randn returns a standard normal tensor of the shape in dtype dt (drawn
// in float64 and rounded, so both dtypes see the same numbers).
func randn(rng *rand.Rand, dt tensorops.DType, s ...int) *tensorops.Tensor {
	return tensorops.AsType(tensorops.RandN(rng, f64, s...), dt)
}

// as64 returns t in float64.
func as64(t *tensorops.Tensor) *tensorops.Tensor { return tensorops.AsType(t, f64) }

// diff returns the central difference of f at 0 along t: (f(h) − f(−h))/2h.
func diff(f func(s float64) float64) float64 {
	const h = 1e-5
	return (f(h) - f(-h)) / (2 * h)
}

// moved returns p + s·v in float64.
func moved(p, v *tensorops.Tensor, s float64) *tensorops.Tensor {
	return tensorops.Add(as64(p), tensorops.Scale(as64(v), s))
}

func (m *CNN) fields() []**tensorops.Tensor { return []**tensorops.Tensor{&m.K, &m.KB, &m.W, &m.B} }

func newCNN(rng *rand.Rand, dt tensorops.DType) *CNN {
	return &CNN{K: randn(rng, dt, 4, 2, 3, 3), KB: randn(rng, dt, 4, 1, 1), W: randn(rng, dt, 36, 3), B: randn(rng, dt, 3)}
}

// TestLoss checks the gradient of the classifier with respect to each
// parameter against central differences along a random direction, and
// the JVP along all of them against the sum of those differences.
func TestLoss(t *testing.T) {
	for _, dt := range []tensorops.DType{f64, f32} {
		t.Run(dt.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			m, dm := newCNN(rng, dt), newCNN(rng, dt)
			x := randn(rng, dt, 5, 2, 6, 6)
			y := tensorops.OneHot([]int{0, 1, 2, 1, 0}, 3, dt)
			var g CNN
			f := LossGrad(m, &g, x, y)
			if want := Loss(m, x, y); f != want {
				t.Errorf("LossGrad value %v, want %v", f, want)
			}
			sum := 0.0
			for i, p := range m.fields() {
				v := *dm.fields()[i]
				fd := diff(func(s float64) float64 {
					m2 := &CNN{K: as64(m.K), KB: as64(m.KB), W: as64(m.W), B: as64(m.B)}
					*m2.fields()[i] = moved(*p, v, s)
					return Loss(m2, as64(x), as64(y))
				})
				gi := *g.fields()[i]
				if gi.DType() != dt {
					t.Errorf("gradient field %d has dtype %v, want %v", i, gi.DType(), dt)
				}
				close(t, fmt.Sprintf("gradient field %d along v", i), tensorops.Dot(as64(gi), as64(v)), fd, tol(dt))
				sum += fd
			}
			fj, jv := LossJVP(m, dm, x, y)
			close(t, "JVP value", fj, f, 1e-6)
			close(t, "JVP", jv, sum, tol(dt))
		})
	}
}

// TestInputHVP checks the saliency (the gradient with respect to the
// images) against central differences, and the HVP, forward over
// reverse, against central differences of the float64 gradient.
func TestInputHVP(t *testing.T) {
	for _, dt := range []tensorops.DType{f64, f32} {
		t.Run(dt.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			m := newCNN(rng, dt)
			m64 := &CNN{K: as64(m.K), KB: as64(m.KB), W: as64(m.W), B: as64(m.B)}
			x, v := randn(rng, dt, 5, 2, 6, 6), randn(rng, dt, 5, 2, 6, 6)
			y := tensorops.OneHot([]int{2, 1, 0, 0, 1}, 3, dt)
			_, g := InputLossGrad(m, x, y)
			fd := diff(func(s float64) float64 { return InputLoss(m64, moved(x, v, s), as64(y)) })
			close(t, "gradient along v", tensorops.Dot(as64(g), as64(v)), fd, tol(dt))
			f, hv := InputLossHVP(m, x, v, y)
			close(t, "HVP value", f, InputLoss(m, x, y), 1e-12)
			const h = 1e-5
			_, gp := InputLossGrad(m64, moved(x, v, h), as64(y))
			_, gm := InputLossGrad(m64, moved(x, v, -h), as64(y))
			want := tensorops.Scale(tensorops.Sub(gp, gm), 1/(2*h))
			scale := math.Max(1, tensorops.MaxAll(tensorops.Abs(want)))
			if hv.DType() != dt {
				t.Errorf("HVP has dtype %v, want %v", hv.DType(), dt)
			}
			if d := tensorops.MaxAbsDiff(as64(hv), want); !(d <= 10*tol(dt)*scale) {
				t.Errorf("HVP: max |hv − differences of the gradient| = %v, want ≤ %v", d, 10*tol(dt)*scale)
			}
		})
	}
}

func (a *Atrous) fields() []**tensorops.Tensor { return []**tensorops.Tensor{&a.K, &a.W, &a.B} }

func newAtrous(rng *rand.Rand, dt tensorops.DType) *Atrous {
	return &Atrous{K: randn(rng, dt, 3, 1, 3, 2), W: tensorops.Scale(randn(rng, dt, 75, 2), 0.3), B: randn(rng, dt, 2)}
}

func (a *Atrous) as64() *Atrous { return &Atrous{K: as64(a.K), W: as64(a.W), B: as64(a.B)} }

// TestAtrous checks the dilated network's gradient and JVP as TestLoss
// does, and its Taylor coefficients along a line a + t·v against
// differences of the function on that line.
func TestAtrous(t *testing.T) {
	for _, dt := range []tensorops.DType{f64, f32} {
		t.Run(dt.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			a, da := newAtrous(rng, dt), newAtrous(rng, dt)
			x, y := randn(rng, dt, 3, 1, 9, 8), randn(rng, dt, 3, 2)
			var g Atrous
			f := AtrousLossGrad(a, &g, x, y)
			if want := AtrousLoss(a, x, y); f != want {
				t.Errorf("AtrousLossGrad value %v, want %v", f, want)
			}
			sum := 0.0
			for i, p := range a.fields() {
				v := *da.fields()[i]
				fd := diff(func(s float64) float64 {
					a2 := a.as64()
					*a2.fields()[i] = moved(*p, v, s)
					return AtrousLoss(a2, as64(x), as64(y))
				})
				close(t, fmt.Sprintf("gradient field %d along v", i), tensorops.Dot(as64(*g.fields()[i]), as64(v)), fd, tol(dt))
				sum += fd
			}
			_, jv := AtrousLossJVP(a, da, x, y)
			close(t, "JVP", jv, sum, tol(dt))

			// Taylor mode on the line a + s·da (coefficients 2 and 3 of
			// the curve nil: zero): c1 is the JVP; c2 and c3 against
			// differences of the float64 function on the line.
			line := func(s float64) float64 {
				a64, d64 := a.as64(), da.as64()
				return AtrousLoss(&Atrous{K: moved(a64.K, d64.K, s), W: moved(a64.W, d64.W, s), B: moved(a64.B, d64.B, s)}, as64(x), as64(y))
			}
			f0, c1, c2, c3 := AtrousLossTaylor(a, da, &Atrous{}, &Atrous{}, x, y)
			close(t, "Taylor value", f0, f, tol(dt)/100)
			close(t, "Taylor c1", c1, jv, tol(dt)/100)
			// Central differences of order h², extrapolated (Richardson:
			// (4·D(h/2) − D(h))/3 is of order h⁴).
			d2 := func(h float64) float64 { return (line(h) - 2*line(0) + line(-h)) / (2 * h * h) }
			d3 := func(h float64) float64 { return (line(2*h) - 2*line(h) + 2*line(-h) - line(-2*h)) / (12 * h * h * h) }
			close(t, "Taylor c2", c2, (4*d2(5e-4)-d2(1e-3))/3, tol(dt)*10)
			close(t, "Taylor c3", c3, (4*d3(5e-3)-d3(1e-2))/3, tol(dt)*100)
		})
	}
}
