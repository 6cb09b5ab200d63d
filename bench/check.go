package bench

// This file verifies a problem's derivatives before they are timed.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

// Verify checks every derivative of p at p.X and returns an error naming
// the first one that is wrong.
//
// The hand-written gradient is the reference. It is checked against central
// differences along two random directions (and, when p.FD is set, against
// the whole fd.Gradient, which checks that too). Then gadgen's JVP must
// return F(x) and agree with g·v along two random directions, and gadgen's
// gradient must return F(x) and agree with g, both to verify.Exact
// (relative 1e-10, with a floor at rounding level). gadgen's HVP must
// return F(x) and overwrite hv with the central difference of the
// hand-written gradient along each of the two directions, to verify.FD. No
// derivative may modify x.
func Verify(p *Problem) error {
	x := p.X
	x0 := slices.Clone(x)
	y := p.F(x)
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return fmt.Errorf("the function is %v at x", y)
	}
	if p.Hand == nil {
		return fmt.Errorf("no hand-written gradient to verify against")
	}
	g := make([]float64, len(x))
	if err := verify.Value(p.Hand(x, g), y, verify.Exact); err != nil {
		return fmt.Errorf("%s: %w", Hand, err)
	}
	if err := unchanged(Hand, x, x0); err != nil {
		return err
	}
	rnd := rand.New(rand.NewPCG(uint64(len(x)), 11))
	dirs := [][]float64{direction(rnd, len(x)), direction(rnd, len(x))}
	for _, v := range dirs {
		if err := verify.Directional(p.F, x, g, v, verify.FD); err != nil {
			return fmt.Errorf("%s: %w", Hand, err)
		}
	}
	if p.FD {
		// fd.Gradient, called as it is timed.
		if err := verify.FDGradient(p.F, x, g, verify.FD); err != nil {
			return fmt.Errorf("%s and %s disagree: %w", Hand, FD, err)
		}
	}
	jvps := []struct {
		k   Kind
		jvp func(x, v []float64) (float64, float64)
	}{{JVP, p.JVP}, {JVPO0, p.JVPO0}}
	for _, kj := range jvps {
		k, jvp := kj.k, kj.jvp
		if jvp == nil {
			continue
		}
		for _, v := range dirs {
			v0 := slices.Clone(v)
			yj, dy := jvp(x, v)
			if err := unchanged(k, x, x0); err != nil {
				return err
			}
			if !slices.Equal(v, v0) {
				return fmt.Errorf("%s modified its tangent argument", k)
			}
			if err := verify.Value(yj, y, verify.Exact); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			if err := verify.Dot(dy, g, v, verify.Exact); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
	}
	grads := []struct {
		k    Kind
		grad func(x, dx []float64) float64
	}{{Grad, p.Grad}, {GradO0, p.GradO0}}
	for _, kg := range grads {
		k, grad := kg.k, kg.grad
		if grad == nil {
			continue
		}
		gg := make([]float64, len(x))
		if err := verify.Value(grad(x, gg), y, verify.Exact); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		if err := unchanged(k, x, x0); err != nil {
			return err
		}
		if err := verify.Same(gg, g, verify.Exact); err != nil {
			return fmt.Errorf("%s (against %s): %w", k, Hand, err)
		}
	}
	if p.HVP != nil {
		for _, v := range dirs {
			hv := make([]float64, len(x))
			for i := range hv {
				hv[i] = math.NaN() // the HVP overwrites hv
			}
			yh := p.HVP(x, v, hv)
			if err := unchanged(HVP, x, x0); err != nil {
				return err
			}
			if err := verify.Value(yh, y, verify.Exact); err != nil {
				return fmt.Errorf("%s: %w", HVP, err)
			}
			if err := verify.HVP(p.Hand, x, v, hv, verify.FD); err != nil {
				return fmt.Errorf("%s (against %s): %w", HVP, Hand, err)
			}
		}
	}
	return nil
}

func unchanged(k Kind, x, x0 []float64) error {
	if !slices.Equal(x, x0) {
		return fmt.Errorf("%s modified x", k)
	}
	return nil
}

// direction returns a standard normal vector of length n.
func direction(rnd *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rnd.NormFloat64()
	}
	return v
}
