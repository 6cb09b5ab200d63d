package userrules

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/tensorops"
)

// dtypes are the two dtypes every check runs in.
var dtypes = []tensorops.DType{tensorops.Float64, tensorops.Float32}

func newModel(r *rand.Rand, dt tensorops.DType) (*Model, *T, *T) {
	m := &Model{
		W1: tensorops.Scale(tensorops.RandN(r, dt, 4, 5), 0.5),
		B1: tensorops.Scale(tensorops.RandN(r, dt, 5), 0.1),
		W2: tensorops.Scale(tensorops.RandN(r, dt, 5, 3), 0.5),
		S:  0.8,
	}
	return m, tensorops.RandN(r, dt, 6, 4), tensorops.RandN(r, dt, 6, 3)
}

// TestRules checks the users' rules themselves, the JVP and the VJP
// against central differences of the functions and by the dot-product
// test.
func TestRules(t *testing.T) {
	for _, dt := range dtypes {
		t.Run(dt.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			x := tensorops.RandN(r, dt, 3, 4)
			gadtest.TensorJVP(t, gelu, func(x, dx *T) (*T, *T) { return gelu(x), geluTangent(x, dx) }, x)
			vjp := func(x, rBar *T) (*T, *T) { return gelu(x), geluAdjoint(x, rBar) }
			gadtest.TensorVJP(t, gelu, vjp, x)

			// gelu's own Taylor mode of order 2 (the rule's JVP,
			// differentiated): c₂ = (d/ds c₁(x + s·v))/2 along the line.
			v := tensorops.RandN(r, dt, x.Shape()...)
			jet := func(s float64) (*T, *T) {
				_, c1, c2 := geluTaylor(tensorops.Add(x, tensorops.Scale(v, s)), v, tensorops.ZerosLike(x))
				return c1, c2
			}
			var opts []gadtest.Option
			if dt == tensorops.Float32 {
				opts = append(opts, gadtest.Float32())
			}
			gadtest.TensorJVP(t, func(s float64) *T { c1, _ := jet(s); return c1 },
				func(s, ds float64) (*T, *T) { c1, c2 := jet(s); return c1, tensorops.Scale(c2, 2*ds) }, 0.0, opts...)

			type point struct {
				X *T
				S float64
			}
			f := func(p point) *T { return scaledExp(p.X, p.S, 2) }
			jvp := func(p, dp point) (*T, *T) {
				y := f(p)
				return y, scaledExpTangent(p.X, p.S, 2, y, dp.X, dp.S)
			}
			svjp := func(p point, rBar *T) (*T, point) {
				y := f(p)
				xBar, sBar := scaledExpAdjoint(p.X, p.S, 2, y, rBar)
				return y, point{xBar, sBar}
			}
			p := point{tensorops.Scale(x, 0.3), 1.3}
			gadtest.TensorJVP(t, f, jvp, p)
			gadtest.TensorVJP(t, f, svjp, p)
			gadtest.TensorDot(t, jvp, svjp, p)
		})
	}
}

// TestLoss checks the derivatives of a model whose activations have
// users' rules: the JVP and the gradient against central differences,
// and against each other.
func TestLoss(t *testing.T) {
	for _, dt := range dtypes {
		t.Run(dt.String(), func(t *testing.T) {
			m, x, y := newModel(rand.New(rand.NewPCG(3, 4)), dt)
			f := func(m *Model) float64 { return Loss(m, x, y) }
			jvp := func(m, dm *Model) (float64, float64) { return LossJVP(m, dm, x, y) }
			grad := func(m, mBar *Model) float64 { return LossGrad(m, mBar, x, y) }
			gadtest.TensorJVP(t, f, jvp, m)
			gadtest.TensorGradTo(t, f, grad, m)
			gadtest.TensorDot(t, jvp, gadtest.GradToVJP(grad), m)
		})
	}
}

// TestEnergy checks every mode of a function of one tensor through a
// ruled function: JVP, gradient, Taylor (order 1), the HVP against
// differences of the gradient (forward mode over the gradient, which
// calls the rule's VJP: gadgen differentiates the user's VJP), and the
// Hessian against the HVPs.
func TestEnergy(t *testing.T) {
	for _, dt := range dtypes {
		t.Run(dt.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			x := tensorops.RandN(r, dt, 2, 3)
			gadtest.TensorJVP(t, Energy, EnergyJVP, x)
			gadtest.TensorGrad(t, Energy, EnergyGrad, x)
			gadtest.TensorDot(t, EnergyJVP, gadtest.GradVJP(EnergyGrad), x)
			grad := func(x *T) *T { _, g := EnergyGrad(x); return g }
			hvp := func(x, v *T) (*T, *T) {
				f, hv := EnergyHVP(x, v)
				if f != Energy(x) {
					t.Errorf("EnergyHVP's value %v, want %v", f, Energy(x))
				}
				return grad(x), hv
			}
			gadtest.TensorJVP(t, grad, hvp, x)
			f, h := EnergyHessian(x)
			if f != Energy(x) {
				t.Errorf("EnergyHessian's value %v, want %v", f, Energy(x))
			}
			n := tensorops.Size(x)
			for i := range n {
				_, hv := EnergyHVP(x, tensorops.Basis(x, i))
				row := tensorops.Reshape(tensorops.Slice(h, 0, i, i+1), n)
				if d := tensorops.MaxAbsDiff(row, tensorops.Reshape(hv, n)); !(d <= tol(dt)) {
					t.Errorf("row %d of the Hessian differs from the HVP along e%d by %v", i, i, d)
				}
			}
			// Taylor mode of order 3, which expands the rule's JVP by
			// differentiating it: the value, then each coefficient
			// c_{k+1} = (d/ds c_k(x + s·v))/(k+1) along the line.
			v := tensorops.RandN(r, dt, x.Shape()...)
			zero := tensorops.ZerosLike(x)
			jet := func(s float64) []float64 {
				f, c1, c2, c3 := EnergyTaylor(tensorops.Add(x, tensorops.Scale(v, s)), v, zero, zero)
				return []float64{f, c1, c2, c3}
			}
			var opts []gadtest.Option
			if dt == tensorops.Float32 {
				opts = append(opts, gadtest.Float32()) // a float64 point, float32 inside
			}
			for k := range 3 {
				gadtest.TensorJVP(t, func(s float64) float64 { return jet(s)[k] },
					func(s, ds float64) (float64, float64) { c := jet(s); return c[k], float64(k+1) * c[k+1] * ds }, 0.0, opts...)
			}
			// The Hessian's diagonal and trace, by jets through the rule.
			f, d := EnergyHessDiag(x)
			if f != Energy(x) {
				t.Errorf("EnergyHessDiag's value %v, want %v", f, Energy(x))
			}
			diag := tensorops.Reshape(tensorops.DiagPart(h), x.Shape()...)
			if e := tensorops.MaxAbsDiff(d, diag); !(e <= tol(dt)) {
				t.Errorf("EnergyHessDiag differs from the Hessian's diagonal by %v", e)
			}
			f, lap := EnergyLaplacian(x)
			if want := tensorops.SumAll(diag); f != Energy(x) || !(math.Abs(lap-want) <= tol(dt)*math.Max(1, math.Abs(want))) {
				t.Errorf("EnergyLaplacian = %v, %v, want %v, %v", f, lap, Energy(x), want)
			}
		})
	}
}

func tol(dt tensorops.DType) float64 {
	if dt == tensorops.Float32 {
		return 1e-5
	}
	return 1e-12
}
