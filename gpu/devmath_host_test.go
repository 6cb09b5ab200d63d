//go:build cgo

package gpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/gpu/internal/kern"
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// This file checks devmath.h's functions through the host shim against
// Go's math, in float64 and float32, over wide ranges and the special
// values. The errors are in ulps (the number of doubles, or floats,
// between the result and Go's, or a 256-bit reference (bigmath_test.go)
// where Go's is further off than the bound: Go's Sin and Cos near
// multiples of π/2 below 2^29, Go's Pow for large |y·log x|). The bounds
// are the maxima measured here, which the tests enforce:
//
//	function  float64  float32  ranges
//	Log       1        0        every exponent, near 1, subnormals
//	Log1p     1        0        (−1, 1), near −1, tiny, up to 1e308
//	Expm1     1        0        [−40, 710], tiny
//	Tanh      1        0        [−25, 25], tiny
//	Sigmoid   2        0        [−750, 750] (Go's formula; exp within 1 ulp of Go's)
//	Sqrt      0        0        every exponent
//	Sin, Cos  1        0        [−10, 10], ±1e6, near k·π/2 (|k| < 5e5), every exponent to 1e308
//	Pow       1        0        x of every exponent, y in [−60, 60], integers with x < 0,
//	                            x near 1 with |y| < 2e4, every pair of special values
//	Erf       1        0        [−6.5, 6.5], tiny, subnormal
//	GELU      4        0        [−37, 40], tiny (x/2·erfc(−x/√2): erfc within 3 ulps of Go's;
//	                            below −37 the result is subnormal, with its absolute error)
//	SiLU      2        0        [−750, 750], tiny
//	Softplus  2        0        [−750, 750], tiny
//
// Special values (±0, ±Inf, NaN, the signs of zero results) must match
// exactly. float32 results are the double results rounded, as on the CPU,
// and are compared with float32(math.F(float64(x))); they may differ by 1
// where the double result lies next to a float rounding boundary, which
// the bound allows.

// ulps64 is the distance between a and b in doubles (0 for two NaNs,
// +Inf for a NaN against a number or ±0 against ∓0).
func ulps64(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return math.Inf(1)
	}
	if a == b && math.Signbit(a) != math.Signbit(b) || math.IsInf(a, 0) != math.IsInf(b, 0) {
		return math.Inf(1)
	}
	ord := func(x float64) int64 {
		b := int64(math.Float64bits(x))
		if b < 0 {
			b = math.MinInt64 - b
		}
		return b
	}
	return math.Abs(float64(ord(a) - ord(b)))
}

// ulps32 is ulps64 for floats.
func ulps32(a, b float32) float64 {
	if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) {
		return ulps64(float64(a), float64(b))
	}
	if a == b && math.Signbit(float64(a)) != math.Signbit(float64(b)) || math.IsInf(float64(a), 0) != math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	ord := func(x float32) int64 {
		b := int64(int32(math.Float32bits(x)))
		if b < 0 {
			b = math.MinInt32 - b
		}
		return b
	}
	return math.Abs(float64(ord(a) - ord(b)))
}

var specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, math.Inf(1), math.Inf(-1), math.NaN(),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
	1e-300, -1e-300, 1e300, -1e300, math.Pi, math.Pi / 2, -math.Pi / 2, math.Pi / 4, 1 << 28, 1 << 29, 1e22}

// logUniform returns n values 2^u·(1+v), u uniform in [lo, hi), v in [0, 1), of random signs when signed.
func logUniform(rng *rand.Rand, n int, lo, hi float64, signed bool) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Ldexp(1+rng.Float64(), int(lo+(hi-lo)*rng.Float64()))
		if signed && rng.IntN(2) == 0 {
			xs[i] = -xs[i]
		}
	}
	return xs
}

func uniform(rng *rand.Rand, n int, lo, hi float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo + (hi-lo)*rng.Float64()
	}
	return xs
}

func TestHostDevMath(t *testing.T) {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 20000
	cat := func(parts ...[]float64) []float64 {
		var xs []float64
		for _, p := range parts {
			xs = append(xs, p...)
		}
		return append(xs, specials...)
	}
	var nearPio2 []float64
	for range n / 20 {
		k := float64(rng.IntN(1000000) - 500000)
		nearPio2 = append(nearPio2, k*math.Pi/2, math.Nextafter(k*math.Pi/2, 0))
	}
	tiny := logUniform(rng, n/4, -80, -1, true)
	for _, tc := range []struct {
		name     string
		f        func(*T.Tensor) *T.Tensor
		ref      func(float64) float64
		exact    func(float64) float64 // a 256-bit reference where ref differs
		xs       []float64
		max, m32 float64
	}{
		{"Log", T.Log, logRef, nil, cat(logUniform(rng, n, -1074, 1024, false), uniform(rng, n, 0.7, 1.5)), 1, 1},
		{"Log1p", T.Log1p, math.Log1p, nil, cat(uniform(rng, n, -1, 1), tiny, logUniform(rng, n/4, -54, -1, false), logUniform(rng, n/4, 0, 1023, false)), 1, 1},
		{"Expm1", T.Expm1, math.Expm1, nil, cat(uniform(rng, n, -40, 710), uniform(rng, n, -2, 2), tiny), 1, 1},
		{"Tanh", T.Tanh, math.Tanh, nil, cat(uniform(rng, n, -25, 25), uniform(rng, n, -1, 1), tiny), 1, 1},
		{"Sigmoid", T.Sigmoid, sigmoidRef, nil, cat(uniform(rng, n, -750, 750), uniform(rng, n, -10, 10)), 2, 1},
		{"Sqrt", T.Sqrt, math.Sqrt, nil, cat(logUniform(rng, n, -1074, 1024, true)), 0, 0},
		{"Sin", T.Sin, math.Sin, bigSin, cat(uniform(rng, n, -10, 10), uniform(rng, n/4, -1e6, 1e6), nearPio2, logUniform(rng, n, -30, 1024, true), tiny), 1, 1},
		{"Cos", T.Cos, math.Cos, bigCos, cat(uniform(rng, n, -10, 10), uniform(rng, n/4, -1e6, 1e6), nearPio2, logUniform(rng, n, -30, 1024, true), tiny), 1, 1},
		{"Erf", T.Erf, math.Erf, nil, cat(uniform(rng, n, -6.5, 6.5), uniform(rng, n, -2.5, 2.5), tiny, logUniform(rng, n/4, -1074, -80, true)), 1, 1},
		{"GELU", T.GELU, geluRef, nil, cat(uniform(rng, n, -37, 40), uniform(rng, n, -3, 3), tiny), 4, 1},
		{"SiLU", T.SiLU, siluRef, nil, cat(uniform(rng, n, -750, 750), uniform(rng, n, -10, 10), tiny), 2, 1},
		{"Softplus", T.Softplus, softplusRef, nil, cat(uniform(rng, n, -750, 750), uniform(rng, n, -40, 40), tiny), 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var exact func(x, _ float64) float64
			if tc.exact != nil {
				exact = func(x, _ float64) float64 { return tc.exact(x) }
			}
			checkULPs(t, tc.name, tc.xs, nil, func(x, _ *T.Tensor) *T.Tensor { return tc.f(x) },
				func(x, _ float64) float64 { return tc.ref(x) }, exact, tc.max, tc.m32)
		})
	}
	t.Run("Pow", func(t *testing.T) {
		var xs, ys []float64
		for range n / 8 {
			x := math.Ldexp(1+rng.Float64(), rng.IntN(400)-200)
			y := -60 + 120*rng.Float64()
			if rng.IntN(4) == 0 {
				y = math.Round(y)
				if rng.IntN(2) == 0 {
					x = -x
				}
			}
			if math.Abs(y*math.Log(math.Abs(x))) > 690 {
				y = 690 / math.Log(math.Abs(x)) * rng.Float64()
			}
			xs, ys = append(xs, x), append(ys, y)
		}
		for range n / 16 { // near 1, large y
			x, y := 1+(rng.Float64()-0.5)/64, -20000+40000*rng.Float64()
			xs, ys = append(xs, x), append(ys, y)
		}
		pspec := append(specials, 1<<53, 1<<53+2, 1<<53-1, -(1<<53 - 1), 1e-320, 1+1e-16, 1-1e-16)
		for _, x := range pspec {
			for _, y := range pspec {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
		checkULPs(t, "Pow", xs, ys, T.Pow, math.Pow, bigPow, 1, 1)
		// PowScalar with the suite's exponents and the special ones.
		for _, p := range []float64{2, 0.5, 3, -1.5, 1, 0, -1, -0.5, 7, 1e10} {
			checkULPs(t, "PowScalar", xs[:n/8], nil, func(x, _ *T.Tensor) *T.Tensor { return T.PowScalar(x, p) },
				func(x, _ float64) float64 { return math.Pow(x, p) }, func(x, _ float64) float64 { return bigPow(x, p) }, 1, 1)
		}
	})
}

// logRef is math.Log, but right for subnormal x: Go's assembly Log on
// amd64 is not (math.Log(5e-324) is −709.09, log(2^-1023); the true value
// is −744.44), so neither is tensorops' CPU Log there.
func logRef(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// geluRef, siluRef and softplusRef are tensorops' formulas
// (activation.go) with Go's math.
func geluRef(x float64) float64     { return 0.5 * x * math.Erfc(-x*0.7071067811865476) }
func siluRef(x float64) float64     { return x * sigmoidRef(x) }
func softplusRef(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }

func sigmoidRef(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// checkULPs runs f on device 0 (xs, and ys when not nil) in float64 and
// float32 and compares the results with ref element by element, and with
// exact (when not nil) where they differ from ref by more than the bound.
func checkULPs(t *testing.T, name string, xs, ys []float64, f func(x, y *T.Tensor) *T.Tensor, ref, exact func(x, y float64) float64, max64, max32 float64) {
	t.Helper()
	y64 := make([]float64, len(xs))
	if ys != nil {
		y64 = ys
	}
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		xr, yr := xs, y64
		x, y := T.FromFloat64s(xr), T.FromFloat64s(yr)
		if dt == T.Float32 {
			xr, yr = round32(xr), round32(yr)
			x, y = T.FromFloat32s(f32s(xr)), T.FromFloat32s(f32s(yr))
		}
		var yd *T.Tensor
		if ys != nil {
			yd = y.To(Device(0))
		}
		r := f(x.To(Device(0)), yd).To(T.CPU)
		var got []float64
		if dt == T.Float32 {
			for _, v := range r.Float32s() {
				got = append(got, float64(v))
			}
		} else {
			got = r.Float64s()
		}
		max := max64
		if dt == T.Float32 {
			max = max32
		}
		dist := func(g, w float64) float64 {
			if dt == T.Float32 {
				return ulps32(float32(g), float32(w))
			}
			return ulps64(g, w)
		}
		worst, at, nexact := 0.0, 0, 0
		for i := range xr {
			u := dist(got[i], ref(xr[i], yr[i]))
			if u > max && exact != nil {
				u = dist(got[i], exact(xr[i], yr[i]))
				nexact++
			}
			if u > worst {
				worst, at = u, i
			}
		}
		t.Logf("%s %v: max %g ulps (%d points checked with the 256-bit reference; at x=%v y=%v: got %v, want %v)", name, dt, worst, nexact, xr[at], yr[at], got[at], ref(xr[at], yr[at]))
		if worst > max {
			t.Errorf("%s %v: %g ulps at x=%v y=%v: got %v, want %v (at most %g ulps)", name, dt, worst, xr[at], yr[at], got[at], ref(xr[at], yr[at]), max)
		}
	}
}

// round32 returns xs rounded to float32, as float64s.
func round32(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		out = append(out, float64(float32(x)))
	}
	return out
}

func f32s(xs []float64) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(x)
	}
	return out
}
