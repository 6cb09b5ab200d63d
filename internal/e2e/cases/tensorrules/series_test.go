package tensorrules

import (
	"fmt"
	"math"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
	"github.com/gadgen/gadgen/tensorops"
)

// sigmoid returns 1/(1 + e^−x) without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// TestSoftmaxSeries checks the Taylor coefficients of the softmax family
// (Rule.Expand) against known series, with large logits too, where an
// exponential of an unshifted logit overflows (float32 from 89, float64
// from 710): for the logits [x + t, 0], s = σ(x), LogSumExp is
// log(eˣ⁺ᵗ + 1) with coefficients s, s(1−s)/2, s(1−s)(1−2s)/6; the
// first softmax s + s(1−s)·t + s(1−s)(1−2s)/2·t² + s(1−s)(1−6s+6s²)/6·t³;
// the first log-softmax, log σ(x+t), the log-sum-exp's with the signs of
// the first derivative of −log σ flipped; the cross-entropy with labels
// [1, 0], −log σ(x+t), coefficients s − 1, s(1−s)/2, s(1−s)(1−2s)/6.
// Shifting all logits together leaves the softmax fixed: its
// coefficients are zero.
func TestSoftmaxSeries(t *testing.T) {
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		tol := 1e-14
		if dt == tensorops.Float32 {
			tol = 3e-7
		}
		for _, x := range []float64{0, 0.7, -3, 100, -100, 1000} {
			if dt == tensorops.Float32 && math.Abs(x) > 1e3 {
				continue
			}
			s := sigmoid(x)
			d1, d2, d3 := s*(1-s), s*(1-s)*(1-2*s)/2, s*(1-s)*(1-6*s+6*s*s)/6
			row := func(a, b float64) *T { return tensorops.AsType(tensorops.FromFloat64s([]float64{a, b}, 1, 2), dt) }
			col := func(a, b float64) *T { return tensorops.AsType(tensorops.FromFloat64s([]float64{a, b}, 2, 1), dt) }
			zr, zc := row(0, 0), col(0, 0)
			first := func(v *T) float64 { return tensorops.AsType(v, tensorops.Float64).Float64s()[0] }
			check := func(what string, got [4]float64, want [3]float64) {
				t.Helper()
				for k := 1; k <= 3; k++ {
					if w := want[k-1]; !(math.Abs(got[k]-w) <= tol*(1+math.Abs(w))) {
						t.Errorf("%v, x = %v: %s coefficient %d: got %v, want %v", dt, x, what, k, got[k], w)
					}
				}
			}
			tensors := func(a, b, c, d *T) [4]float64 { return [4]float64{first(a), first(b), first(c), first(d)} }
			check("LogSumExp", tensors(LogSumExpOpTaylor(row(x, 0), row(1, 0), zr, zr)), [3]float64{s, d1 / 2, d2 / 3})
			check("Softmax", tensors(SoftmaxOpTaylor(row(x, 0), row(1, 0), zr, zr)), [3]float64{d1, d2, d3})
			check("LogSoftmax", tensors(LogSoftmaxOpTaylor(col(x, 0), col(1, 0), zc, zc)), [3]float64{1 - s, -d1 / 2, -d2 / 3})
			ce0, ce1, ce2, ce3 := SoftmaxCrossEntropyOpTaylor(row(x, 0), row(1, 0), zr, zr, row(1, 0), zr, zr, zr)
			check("SoftmaxCrossEntropy", [4]float64{ce0, ce1, ce2, ce3}, [3]float64{s - 1, d1 / 2, d2 / 3})
			// A shift of every logit: the softmax does not move.
			check("Softmax of shifted logits", tensors(SoftmaxOpTaylor(row(x, 0), row(1, 1), row(-2, -2), row(0.5, 0.5))), [3]float64{})
			check("LogSumExp of shifted logits", tensors(LogSumExpOpTaylor(row(x, 0), row(1, 1), row(-2, -2), row(0.5, 0.5))), [3]float64{1, -2, 0.5})
		}
	}
}

// TestVarianceSeries checks the Taylor coefficients of the variance and
// the standard deviation along a line a + t·v against their closed forms:
// Var(a + t·v) = Var(a) + 2·Cov(a, v)·t + Var(v)·t² (no cubic term), and
// the standard deviation its square root, √(A + 2B·t + C·t²) = s0 + s1·t +
// s2·t² + s3·t³ with s0 = √A, s1 = B/s0, s2 = (C − s1²)/(2s0), s3 =
// −s1·s2/s0.
func TestVarianceSeries(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed("TestVarianceSeries"))
	for trial := range 4 {
		a := tensorops.RandU(r, tensorops.Float64, -2, 2, 3, 5)
		v := tensorops.RandU(r, tensorops.Float64, -2, 2, 3, 5)
		z := tensorops.ZerosLike(a)
		where := fmt.Sprintf("trial %d", trial)
		// Var(a, 0, 1): the coefficient 2 is Var(v), the third zero.
		_, _, c2, c3 := VarOpTaylor(a, v, z, z)
		if d := tensorops.MaxAbsDiff(c2, tensorops.Var(v, 0, 1)); !(d <= 1e-14) {
			t.Errorf("%s: Var coefficient 2: differs from Var(v) by %g", where, d)
		}
		if m := tensorops.MaxAll(tensorops.Abs(c3)); m > 1e-14 {
			t.Errorf("%s: Var coefficient 3: got up to %g, want 0", where, m)
		}
		// StdAll(a, 1).
		n := float64(tensorops.Size(a) - 1)
		ca := tensorops.AddScalar(a, -tensorops.MeanAll(a))
		cv := tensorops.AddScalar(v, -tensorops.MeanAll(v))
		A := tensorops.SumAll(tensorops.Mul(ca, ca)) / n
		B := tensorops.SumAll(tensorops.Mul(ca, cv)) / n
		C := tensorops.SumAll(tensorops.Mul(cv, cv)) / n
		s0 := math.Sqrt(A)
		s1 := B / s0
		s2 := (C - s1*s1) / (2 * s0)
		s3 := -s1 * s2 / s0
		g0, g1, g2, g3 := StdAllOpTaylor(a, v, z, z)
		for k, pair := range [][2]float64{{g0, s0}, {g1, s1}, {g2, s2}, {g3, s3}} {
			if got, want := pair[0], pair[1]; !(math.Abs(got-want) <= 1e-13*(1+math.Abs(want))) {
				t.Errorf("%s: StdAll coefficient %d: got %v, want %v", where, k, got, want)
			}
		}
	}
}

// TestStdAtZeroVariance checks the convention of Std and StdAll where the
// variance is zero (equal elements): their derivatives are 0, not NaN, in
// forward and reverse mode.
func TestStdAtZeroVariance(t *testing.T) {
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		// Row 0 of a along the last axis is constant; row 1 is not.
		a := tensorops.AsType(tensorops.FromFloat64s([]float64{0.5, 0.5, 0.5, 0.5, 1, -1, 2, 0}, 2, 4), dt)
		da := tensorops.AsType(tensorops.FromFloat64s([]float64{1, -2, 0.5, 3, 1, 1, 1, 1}, 2, 4), dt)
		seed := tensorops.AsType(tensorops.FromFloat64s([]float64{1, 1}, 2), dt)
		_, d := StdOpJVP(a, da)
		if got := tensorops.AsType(d, tensorops.Float64).Float64s()[0]; got != 0 {
			t.Errorf("%v: Std's tangent at zero variance: got %v, want 0", dt, got)
		}
		_, g := StdOpVJP(a, seed)
		for i, v := range tensorops.AsType(g, tensorops.Float64).Float64s()[:4] {
			if v != 0 {
				t.Errorf("%v: Std's adjoint at zero variance, element %d: got %v, want 0", dt, i, v)
			}
		}
		row := tensorops.Slice(a, 0, 0, 1)
		drow := tensorops.Slice(da, 0, 0, 1)
		if _, d := StdAllOpJVP(row, drow); d != 0 {
			t.Errorf("%v: StdAll's tangent at zero variance: got %v, want 0", dt, d)
		}
		_, gr := StdAllOpVJP(row, 1)
		if m := tensorops.MaxAll(tensorops.Abs(gr)); m != 0 {
			t.Errorf("%v: StdAll's adjoint at zero variance: got up to %v, want 0", dt, m)
		}
	}
}
