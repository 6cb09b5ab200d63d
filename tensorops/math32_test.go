package tensorops

import (
	"math"
	"testing"
)

// ulps32 returns how many float32 values lie between a and b.
func ulps32(a, b float32) int64 {
	ia, ib := int64(int32(math.Float32bits(a))), int64(int32(math.Float32bits(b)))
	if ia < 0 {
		ia = math.MinInt32 - ia
	}
	if ib < 0 {
		ib = math.MinInt32 - ib
	}
	d := ia - ib
	if d < 0 {
		d = -d
	}
	return d
}

// TestMath32 sweeps exp32 and tanh32 over their ranges (every 1021st
// float32 of the range, and the edges) against package math's float64
// results rounded to float32.
func TestMath32(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(float32) float32
		ref    func(float64) float64
		lo, hi float32
		maxULP int64
	}{
		{"exp32", exp32, math.Exp, -104, 89, 1},
		{"tanh32", tanh32, math.Tanh, -10, 10, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			var worst int64
			var at float32
			check := func(x float32) {
				got, want := c.f(x), float32(c.ref(float64(x)))
				if want == 0 && got == 0 {
					return
				}
				if u := ulps32(got, want); u > worst {
					worst, at = u, x
				}
			}
			for _, x := range []float32{0, -0, 1e-30, -1e-30, 1e-8, c.lo, c.hi, 88.7, -87.3, -103.9, 9.05, -9.05, 0.17328, 0.34657} {
				check(x)
			}
			lo, hi := math.Float32bits(c.lo), math.Float32bits(c.hi)
			// Positive floats from 0 up to hi, negative ones down to lo.
			for b := uint32(0); b <= hi; b += 1021 {
				check(math.Float32frombits(b))
			}
			for b := uint32(1 << 31); b <= lo; b += 1021 {
				check(math.Float32frombits(b))
			}
			t.Logf("%s: at most %d ulps from math's (at %v)", c.name, worst, at)
			if worst > c.maxULP {
				t.Errorf("%s(%v) is %d ulps from math's, want ≤ %d", c.name, at, worst, c.maxULP)
			}
		})
	}
	for _, x := range []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())} {
		if e, want := exp32(x), float32(math.Exp(float64(x))); e != want && !(e != e && want != want) {
			t.Errorf("exp32(%v) = %v, want %v", x, e, want)
		}
		if th, want := tanh32(x), float32(math.Tanh(float64(x))); th != want && !(th != th && want != want) {
			t.Errorf("tanh32(%v) = %v, want %v", x, th, want)
		}
	}
}

func BenchmarkMath32(b *testing.B) {
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i-2048) / 512
	}
	var s float32
	b.Run("tanh32", func(b *testing.B) {
		for b.Loop() {
			for _, v := range x {
				s += tanh32(v)
			}
		}
	})
	b.Run("math.Tanh", func(b *testing.B) {
		for b.Loop() {
			for _, v := range x {
				s += float32(math.Tanh(float64(v)))
			}
		}
	})
	b.Run("exp32", func(b *testing.B) {
		for b.Loop() {
			for _, v := range x {
				s += exp32(v)
			}
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for _, v := range x {
				s += float32(math.Exp(float64(v)))
			}
		}
	})
	_ = s
}

// TestTanh32Slice checks the kernel of float32 Tanh (vectorized with
// GOEXPERIMENT=simd) against tanh32 bit for bit over a sweep of every
// float32, both signs, the special values, and a length that is not a
// multiple of the vector width.
func TestTanh32Slice(t *testing.T) {
	var a []float32
	for b := uint32(0); b < 0x7f800000; b += 4093 {
		x := math.Float32frombits(b)
		a = append(a, x, -x)
	}
	a = append(a, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0.0625, -0.0625, 9.1, -9.1,
		0.17328679, -0.17328679, 1e-45, 3)
	d := make([]float32, len(a))
	tanh32Slice(d, a)
	for i, x := range a {
		want := tanh32(x)
		if math.Float32bits(d[i]) != math.Float32bits(want) && !(want != want && d[i] != d[i]) {
			t.Fatalf("tanh32Slice(%g) = %g (%#x), tanh32 %g (%#x)", x, d[i], math.Float32bits(d[i]), want, math.Float32bits(want))
		}
	}
}
