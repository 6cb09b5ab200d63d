package tensorops

import (
	"math"
	"os"
	"testing"

	"github.com/gadgen/gadgen/tensorops/internal/tanhasm"
)

// ulps64 and ulps32 return how many floats lie between a and b.
func ulps64(a, b float64) int64 {
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia < 0 {
		ia = math.MinInt64 - ia
	}
	if ib < 0 {
		ib = math.MinInt64 - ib
	}
	return max(ia-ib, ib-ia)
}

func ulps32(a, b float32) int64 {
	ia, ib := int64(int32(math.Float32bits(a))), int64(int32(math.Float32bits(b)))
	if ia < 0 {
		ia = math.MinInt32 - ia
	}
	if ib < 0 {
		ib = math.MinInt32 - ib
	}
	return max(ia-ib, ib-ia)
}

// tanhSpecials are the edges of the kernels' paths and the values outside
// them.
var tanhSpecials = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 1e-300, 1e-30,
	1e-8, 0.17328679513998632, 0.34657359027997264, 0.5, 1, 3, 9.01, 9.1, 9.2, 19.06, 19.1, 22, 22.0001, 100, 1e300}

// tanhSweep64 returns every step-th non-negative float64 below hi, each
// with both signs, and the specials.
func tanhSweep64(step uint64, hi float64) []float64 {
	var a []float64
	for b := uint64(0); b <= math.Float64bits(hi); b += step {
		x := math.Float64frombits(b)
		a = append(a, x, -x)
	}
	for _, x := range tanhSpecials {
		a = append(a, x, -x)
	}
	return a
}

func tanhSweep32(step uint32, hi float32) []float32 {
	var a []float32
	for b := uint32(0); b <= math.Float32bits(hi); b += step {
		x := math.Float32frombits(b)
		a = append(a, x, -x)
	}
	for _, x := range tanhSpecials {
		a = append(a, float32(x), -float32(x))
	}
	return a
}

func sameBits64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

func sameBits32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// TestTanhSlice checks the slice kernels (AVX2 loops where the CPU has
// them) against the scalar functions bit for bit, over sweeps of both
// dtypes' ranges, at every length up to 20 (the loops' remainders) and
// at every offset of a vector.
func TestTanhSlice(t *testing.T) {
	t.Logf("AVX2 loops: %v", hasAVX2)
	a64 := tanhSweep64(1<<40+12345, 30)
	d64 := make([]float64, len(a64))
	tanh64Slice(d64, a64)
	for i, x := range a64 {
		if want := tanh64(x); !sameBits64(d64[i], want) {
			t.Fatalf("tanh64Slice(%g) = %g (%#x), tanh64 %g (%#x)", x, d64[i], math.Float64bits(d64[i]), want, math.Float64bits(want))
		}
	}
	a32 := tanhSweep32(4093, 12)
	d32 := make([]float32, len(a32))
	tanh32Slice(d32, a32)
	for i, x := range a32 {
		if want := tanh32(x); !sameBits32(d32[i], want) {
			t.Fatalf("tanh32Slice(%g) = %g (%#x), tanh32 %g (%#x)", x, d32[i], math.Float32bits(d32[i]), want, math.Float32bits(want))
		}
	}
	for n := 0; n <= 20; n++ {
		for off := 0; off < 8 && off+n <= len(a32); off++ {
			d := make([]float64, n)
			tanh64Slice(d, a64[off:off+n])
			for i := range d {
				if !sameBits64(d[i], tanh64(a64[off+i])) {
					t.Fatalf("length %d, offset %d: element %d differs", n, off, i)
				}
			}
			e := make([]float32, n)
			tanh32Slice(e, a32[off:off+n])
			for i := range e {
				if !sameBits32(e[i], tanh32(a32[off+i])) {
					t.Fatalf("float32, length %d, offset %d: element %d differs", n, off, i)
				}
			}
		}
	}
}

// TestTanhAccuracy measures tanh64 and tanh32 against math.Tanh (rounded
// to float32 for tanh32) over sweeps of their ranges: every value the
// kernels compute (below Big) and beyond, both signs.
func TestTanhAccuracy(t *testing.T) {
	checkTanhAccuracy(t, "tanh64", tanh64, tanhSweep64(1<<40+4099, 25), ulps64)
	checkTanhAccuracy(t, "tanh32", tanh32, tanhSweep32(1021, 12), ulps32)
}

func checkTanhAccuracy[T Float](t *testing.T, name string, f func(T) T, xs []T, ulps func(a, b T) int64) {
	var worst int64
	var at T
	for _, x := range xs {
		got, want := f(x), T(math.Tanh(float64(x)))
		if want != want || got != got {
			if got == got || want == want {
				t.Errorf("%s(%g) = %g, math.Tanh %g", name, x, got, want)
			}
			continue
		}
		if u := ulps(got, want); u > worst {
			worst, at = u, x
		}
	}
	t.Logf("%s: at most %d ulps from math.Tanh in its dtype (at %g)", name, worst, at)
	if worst > 3 {
		t.Errorf("%s(%g) is %d ulps from math.Tanh, want ≤ 3", name, at, worst)
	}
}

// TestTanhScalarPath runs the slice kernels with the AVX2 loops off, as
// on other CPUs.
func TestTanhScalarPath(t *testing.T) {
	defer func(h bool) { hasAVX2 = h }(hasAVX2)
	hasAVX2 = false
	a := []float64{-3, -0.5, 0, 1e-9, 0.25, 2, 30, math.NaN(), 0.7}
	d := make([]float64, len(a))
	tanh64Slice(d, a)
	for i, x := range a {
		if !sameBits64(d[i], tanh64(x)) {
			t.Errorf("tanh64Slice(%g) = %g, tanh64 %g", x, d[i], tanh64(x))
		}
	}
	a32 := make([]float32, len(a))
	for i, x := range a {
		a32[i] = float32(x)
	}
	d32 := make([]float32, len(a32))
	tanh32Slice(d32, a32)
	for i, x := range a32 {
		if !sameBits32(d32[i], tanh32(x)) {
			t.Errorf("tanh32Slice(%g) = %g, tanh32 %g", x, d32[i], tanh32(x))
		}
	}
}

// TestTanhAsmGenerated checks that tanh_amd64.s is what package tanhasm
// writes (go generate in tensorops).
func TestTanhAsmGenerated(t *testing.T) {
	got, err := os.ReadFile("tanh_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != tanhasm.Source() {
		t.Fatal("tanh_amd64.s is stale: run go generate in tensorops and commit it")
	}
}

func BenchmarkTanh(b *testing.B) {
	x64 := make([]float64, 4096)
	x32 := make([]float32, 4096)
	for i := range x64 {
		x64[i] = float64(i-2048) / 512
		x32[i] = float32(x64[i])
	}
	d64, d32 := make([]float64, len(x64)), make([]float32, len(x32))
	b.Run("tanh64Slice", func(b *testing.B) {
		for b.Loop() {
			tanh64Slice(d64, x64)
		}
	})
	b.Run("math.Tanh", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x64 {
				d64[i] = math.Tanh(v)
			}
		}
	})
	b.Run("tanh32Slice", func(b *testing.B) {
		for b.Loop() {
			tanh32Slice(d32, x32)
		}
	})
	b.Run("tanh64-scalar", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x64 {
				d64[i] = tanh64(v)
			}
		}
	})
}
