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
