package gadtest_test

import (
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

// quartic is f(x) = Σ x_i⁴/4 + x₀x₁, with exact higher derivatives; off
// perturbs one of them.
func quartic(x []float64) float64 {
	s := x[0] * x[1]
	for _, v := range x {
		s += v * v * v * v / 4
	}
	return s
}

func quarticHess(off float64) func(x, h []float64) float64 {
	return func(x, h []float64) float64 {
		n := len(x)
		clear(h)
		for i := range n {
			h[i*n+i] = 3 * x[i] * x[i]
		}
		h[1], h[n] = 1+off, 1+off
		return quartic(x)
	}
}

func quarticHVP(off float64) func(x, v, hv []float64) float64 {
	return func(x, v, hv []float64) float64 {
		for i := range x {
			hv[i] = 3 * x[i] * x[i] * v[i]
		}
		hv[0] += v[1]
		hv[1] += v[0] + off
		return quartic(x)
	}
}

func quarticLap(off float64) func(x []float64) (float64, float64) {
	return func(x []float64) (float64, float64) {
		l := off
		for _, v := range x {
			l += 3 * v * v
		}
		return quartic(x), l
	}
}

func quarticDiag(off float64) func(x, d []float64) float64 {
	return func(x, d []float64) float64 {
		for i := range x {
			d[i] = 3 * x[i] * x[i]
		}
		d[0] += off
		return quartic(x)
	}
}

// quarticJet returns the coefficients of t ↦ f(x + t·v), with off added
// to the third.
func quarticJet(off float64) func(x, v []float64) []float64 {
	return func(x, v []float64) []float64 {
		c := make([]float64, 5)
		c[0] = quartic(x)
		c[1] = x[0]*v[1] + x[1]*v[0]
		c[2] = v[0] * v[1]
		for i := range x {
			a, b := x[i], v[i]
			// (a + bt)⁴/4 = (a⁴ + 4a³b t + 6a²b² t² + 4ab³ t³ + b⁴ t⁴)/4
			c[1] += a * a * a * b
			c[2] += 1.5 * a * a * b * b
			c[3] += a * b * b * b
			c[4] += b * b * b * b / 4
		}
		c[3] += off
		return c
	}
}

func TestSecondOrderChecks(t *testing.T) {
	dom := gadtest.Dim(3)
	for _, off := range []float64{0, 1e-3} {
		checks := map[string]func(tb gadtest.TB){
			"Hessian":   func(tb gadtest.TB) { gadtest.Hessian(tb, quartic, quarticHess(off), dom) },
			"HVP":       func(tb gadtest.TB) { gadtest.HVP(tb, quartic, quarticHVP(off), dom) },
			"Laplacian": func(tb gadtest.TB) { gadtest.Laplacian(tb, quartic, quarticLap(off), dom) },
			"HessDiag":  func(tb gadtest.TB) { gadtest.HessDiag(tb, quartic, quarticDiag(off), dom) },
			"Taylor":    func(tb gadtest.TB) { gadtest.Taylor(tb, quartic, quarticJet(off), dom) },
		}
		for name, check := range checks {
			r := &recorder{}
			check(r)
			switch {
			case off == 0 && (len(r.errs) > 0 || r.fatal != ""):
				t.Errorf("%s rejects the exact derivatives: %s%s", name, r, r.fatal)
			case off != 0 && len(r.errs) == 0:
				t.Errorf("%s accepts derivatives off by %v", name, off)
			}
		}
	}
}
