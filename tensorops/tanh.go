package tensorops

// This file defines the Tanh kernels of both dtypes: tanh64 and tanh32
// compute tanh x in their own precision from expm1 (package tanhasm
// describes the algorithm and holds its constants), and tanh64Slice and
// tanh32Slice apply them to a slice, four float64 or eight float32
// elements at a time with AVX2 on amd64 (tanh_amd64.s, generated), by the
// same operations in the same order, so that a tensor's elements do not
// depend on where they fall in a vector (TestTanhSlice). Accuracy, over
// sweeps of every input range against math.Tanh (TestTanhAccuracy): tanh64
// within 3 ulps of math.Tanh, tanh32 within 3 ulps of math.Tanh's result
// rounded to float32 (the worst at small arguments, where the polynomial's,
// the sum's and the quotient's roundings add up).

import (
	"math"

	"github.com/gadgen/gadgen/tensorops/internal/tanhasm"
)

//go:generate go run ./internal/tanhasm/gen

// tanhConsts are a kernel's constants in its dtype.
type tanhConsts[T Float] struct {
	log2e, ln2Hi, ln2Lo, big T
	coef                     []T
	fma                      bool
}

func newTanhConsts[T Float](k tanhasm.Kernel) *tanhConsts[T] {
	c := &tanhConsts[T]{log2e: T(k.Log2E), ln2Hi: T(k.Ln2Hi), ln2Lo: T(k.Ln2Lo), big: T(k.Big), fma: k.FMA}
	for _, v := range k.Coef {
		c.coef = append(c.coef, T(v))
	}
	return c
}

var (
	tanhK64 = newTanhConsts[float64](tanhasm.F64)
	tanhK32 = newTanhConsts[float32](tanhasm.F32)
)

// tanh64 returns tanh x.
func tanh64(x float64) float64 { return tanhOf(x, tanhK64) }

// tanh32 returns tanh x, computed in float32.
func tanh32(x float32) float32 { return tanhOf(x, tanhK32) }

// tanhOf is package tanhasm's algorithm in T's precision. Without k.fma,
// the explicit conversions of products keep the compiler from fusing them
// into the following addition (as it may with FMA), which the assembly
// does not do; the conversions to float64 and back are exact.
func tanhOf[T Float](x T, k *tanhConsts[T]) T {
	ax := T(math.Abs(float64(x)))
	if ax > k.big {
		return T(math.Copysign(1, float64(x)))
	}
	y := ax + ax
	n := T(math.RoundToEven(float64(T(y * k.log2e))))
	r := y - T(n*k.ln2Hi)
	r -= T(n * k.ln2Lo)
	p := k.coef[0]
	pow := pow2(n)
	var e T
	if k.fma { // T is float64
		for _, c := range k.coef[1:] {
			p = T(math.FMA(float64(p), float64(r), float64(c)))
		}
		p *= r
		e = T(math.FMA(float64(pow), float64(p), float64(pow-1)))
	} else {
		for _, c := range k.coef[1:] {
			p = T(p*r) + c
		}
		p *= r
		e = (pow - 1) + T(pow*p)
	}
	return T(math.Copysign(float64(e/(e+2)), float64(x)))
}

// pow2 returns 2ⁿ for an integral n in T's normal range, put into the
// exponent bits.
func pow2[T Float](n T) T {
	if _, ok := any(n).(float32); ok {
		return T(math.Float32frombits(uint32(int32(n)+127) << 23))
	}
	return T(math.Float64frombits(uint64(int64(n)+1023) << 52))
}

// tanh64Slice sets d[i] = tanh64(a[i]); len(d) == len(a).
func tanh64Slice(d, a []float64) {
	n := tanhVec64(d, a)
	for i := n; i < len(a); i++ {
		d[i] = tanh64(a[i])
	}
}

// tanh32Slice sets d[i] = tanh32(a[i]); len(d) == len(a).
func tanh32Slice(d, a []float32) {
	n := tanhVec32(d, a)
	for i := n; i < len(a); i++ {
		d[i] = tanh32(a[i])
	}
}
