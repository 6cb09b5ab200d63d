// Package tanhasm holds the constants of tensorops' tanh kernels and
// writes their amd64 assembly (tensorops/tanh_amd64.s, by go generate in
// tensorops): one description of the algorithm serves the scalar Go
// functions (tanh64, tanh32) and the AVX2 loops, which do the same
// operations in the same order (no fused multiply-adds), so that both give
// the same bits.
//
// The algorithm (the products and sums fused where Kernel.FMA), for y = 2|x| ≤ 2·Big: y = n·ln2 + r with n = round(y/ln2)
// (to even) and |r| ≤ ln2/2 (Cody–Waite: r = y − n·Ln2Hi − n·Ln2Lo, n·Ln2Hi
// exact); p = e^r − 1 by its Taylor polynomial r·(1 + r·(1/2 + r·(1/6 +
// …))) to degree Degree; e = e^y − 1 = (2ⁿ − 1) + 2ⁿ·p (exactly p when n
// = 0, so small arguments keep their relative accuracy); tanh |x| =
// e/(e + 2); ±1 beyond Big; the sign of x put back last.
package tanhasm

import "math"

// Kernel is the description of one dtype's kernel.
type Kernel struct {
	Name     string // the Go function the loop implements, "tanh64x4"
	Bits     int    // 64 or 32
	Log2E    float64
	Ln2Hi    float64 // ln 2's leading bits: n·Ln2Hi is exact for the n that occur
	Ln2Lo    float64 // ln 2 − Ln2Hi
	Big      float64 // beyond it tanh rounds to ±1
	Magic    float64 // 2^(mantissa bits) + exponent bias: n + Magic holds n + bias in its low bits
	ExpShift int     // mantissa bits: (n + bias) << ExpShift is 2ⁿ
	// Coef are the polynomial's coefficients 1/k!, k = Degree() down to 1
	// (Horner's order).
	Coef []float64
	// FMA: the polynomial's steps p·r + c and e = 2ⁿ·p + (2ⁿ − 1) are
	// fused multiply-adds (one rounding each; math.FMA in Go). Only for
	// float64, where math.FMA is the instruction's exact result; a float32
	// FMA computed through float64 could round twice.
	FMA bool
}

// Degree is the polynomial's degree.
func (k Kernel) Degree() int { return len(k.Coef) }

// FloatBytes is the size of an element.
func (k Kernel) FloatBytes() int { return k.Bits / 8 }

// Lanes is the number of elements in an AVX2 register (32 bytes).
func (k Kernel) Lanes() int { return 32 / k.FloatBytes() }

// inverseFactorials returns 1/k! for k = degree down to 1, Horner's order.
func inverseFactorials(degree int) []float64 {
	c := make([]float64, degree)
	f := 1.0
	for k := 1; k <= degree; k++ {
		f *= float64(k)
		c[degree-k] = 1 / f
	}
	return c
}

// F64 is float64's kernel: degree 13 (the remainder r¹⁴/14! is below
// 5·10⁻¹⁸ of r at |r| = ln2/2); tanh x rounds to ±1 beyond 19.1 (1 − tanh x
// = 2/(e^{2x} + 1) < 2⁻⁵⁴); the ln 2 split of package math's exp.
var F64 = Kernel{
	Name: "tanh64x4", Bits: 64,
	Log2E: math.Log2E,
	Ln2Hi: 6.93147180369123816490e-01, Ln2Lo: 1.90821492927058770002e-10,
	Big: 22, Magic: 1<<52 + 1023, ExpShift: 52,
	Coef: inverseFactorials(13), FMA: true,
}

// F32 is float32's kernel: degree 8 (the remainder r⁹/9! is below 2·10⁻⁸
// of r's float32 ulp scale at |r| = ln2/2); ±1 beyond 9.1; Ln2Hi has 9
// significant bits, so n·Ln2Hi is exact in float32 for |n| < 2⁸. Its
// constants are float32 values.
var F32 = Kernel{
	Name: "tanh32x8", Bits: 32,
	Log2E: float64(float32(math.Log2E)),
	Ln2Hi: 355.0 / 512, Ln2Lo: float64(float32(math.Ln2 - 355.0/512)),
	Big: float64(float32(9.1)), Magic: 1<<23 + 127, ExpShift: 23,
	Coef: f32s(inverseFactorials(8)),
}

func f32s(c []float64) []float64 {
	for i := range c {
		c[i] = float64(float32(c[i]))
	}
	return c
}
