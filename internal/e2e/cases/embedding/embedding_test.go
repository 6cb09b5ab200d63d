package embedding

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

const f64, f32 = tensorops.Float64, tensorops.Float32

// tol is the relative tolerance, to max(1, |want|), of derivatives
// against central differences of the float64 function (step 1e-5) at the
// same (rounded) point; float32 derivatives are computed in float32.
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

func as64(t *tensorops.Tensor) *tensorops.Tensor { return tensorops.AsType(t, f64) }

func (b *Bag) fields() []**tensorops.Tensor { return []**tensorops.Tensor{&b.Table, &b.W, &b.B} }

func (b *Bag) as64() *Bag { return &Bag{Table: as64(b.Table), W: as64(b.W), B: as64(b.B)} }

// along returns b + s·v in float64.
func (b *Bag) along(v *Bag, s float64) *Bag {
	m, d := b.as64(), v.as64()
	for i, p := range m.fields() {
		*p = tensorops.Add(*p, tensorops.Scale(*d.fields()[i], s))
	}
	return m
}

func newBag(rng *rand.Rand, dt tensorops.DType) *Bag {
	r := func(s ...int) *tensorops.Tensor { return tensorops.AsType(tensorops.RandN(rng, f64, s...), dt) }
	return &Bag{Table: r(8, 5), W: r(5, 3), B: r(3)}
}

// ids: 4 samples of 3 ids, with repeats within and across samples; rows
// 4 and 7 are never picked.
var ids = []int{1, 5, 5, 0, 6, 1, 1, 3, 2, 6, 6, 6}

// TestGradients checks the gradients of Loss and Regress with respect to
// each field along random directions against central differences, that
// the table's gradient is zero on the rows no id picks, and Loss's JVP
// against the sum of the differences.
func TestGradients(t *testing.T) {
	for _, dt := range []tensorops.DType{f64, f32} {
		t.Run(dt.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			b, v := newBag(rng, dt), newBag(rng, dt)
			y := tensorops.OneHot([]int{0, 2, 1, 1}, 3, dt)
			for _, fc := range []struct {
				name string
				f    func(*Bag, []int, int, *tensorops.Tensor) float64
				grad func(b, bBar *Bag, ids []int, n int, y *tensorops.Tensor) float64
			}{{"Loss", Loss, LossGrad}, {"Regress", Regress, RegressGrad}} {
				var g Bag
				val := fc.grad(b, &g, ids, 4, y)
				if want := fc.f(b, ids, 4, y); val != want {
					t.Errorf("%sGrad value %v, want %v", fc.name, val, want)
				}
				sum := 0.0
				for i := range b.fields() {
					one := &Bag{Table: tensorops.ZerosLike(b.Table), W: tensorops.ZerosLike(b.W), B: tensorops.ZerosLike(b.B)}
					*one.fields()[i] = *v.fields()[i]
					const h = 1e-5
					fd := (fc.f(b.along(one, h), ids, 4, as64(y)) - fc.f(b.along(one, -h), ids, 4, as64(y))) / (2 * h)
					gi := *g.fields()[i]
					if gi.DType() != dt {
						t.Errorf("%s: gradient field %d has dtype %v, want %v", fc.name, i, gi.DType(), dt)
					}
					close(t, fmt.Sprintf("%s: gradient field %d along v", fc.name, i), tensorops.Dot(as64(gi), as64(*v.fields()[i])), fd, tol(dt))
					sum += fd
				}
				for _, row := range []int{4, 7} {
					if n := tensorops.SumAll(tensorops.Abs(tensorops.Slice(g.Table, 0, row, row+1))); n != 0 {
						t.Errorf("%s: the gradient of the table's row %d, which no id picks, has norm %v, want 0", fc.name, row, n)
					}
				}
				if fc.name == "Loss" {
					fj, jv := LossJVP(b, v, ids, 4, y)
					close(t, "Loss JVP value", fj, val, 1e-6)
					close(t, "Loss JVP", jv, sum, tol(dt))
				}
			}
		})
	}
}

// TestRegressTaylor checks Regress's Taylor coefficients on the line
// b + s·v: the first against central differences, the second against
// second differences extrapolated (Richardson).
func TestRegressTaylor(t *testing.T) {
	for _, dt := range []tensorops.DType{f64, f32} {
		t.Run(dt.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			b, v := newBag(rng, dt), newBag(rng, dt)
			y := tensorops.AsType(tensorops.RandU(rng, f64, 0, 2, 4, 3), dt)
			line := func(s float64) float64 { return Regress(b.along(v, s), ids, 4, as64(y)) }
			f0, c1, c2 := RegressTaylor(b, v, &Bag{}, ids, 4, y)
			close(t, "value", f0, Regress(b, ids, 4, y), tol(dt)/100)
			const h = 1e-5
			close(t, "c1", c1, (line(h)-line(-h))/(2*h), tol(dt))
			d2 := func(h float64) float64 { return (line(h) - 2*line(0) + line(-h)) / (2 * h * h) }
			close(t, "c2", c2, (4*d2(5e-4)-d2(1e-3))/3, 10*tol(dt))
		})
	}
}
