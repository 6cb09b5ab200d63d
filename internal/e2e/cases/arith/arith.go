// Package arith is an end-to-end case of gadgen's forward mode: float64
// arithmetic, compound assignment, unary minus, reassignment and several
// results.
package arith

//go:generate gadgen

// Poly returns 3x³ − 2x² + x − 5.
//
//gad:jvp
//gad:grad
func Poly(x float64) float64 {
	return 3*x*x*x - 2*x*x + x - 5
}

// Ops mixes + − × ÷ between varied values and with constants.
//
//gad:jvp
//gad:grad
func Ops(x, y float64) float64 {
	return (x+y)*(x-y)/(1+x*x) - y/x + 2/y
}

// Compound applies each compound assignment operator to a local.
//
//gad:jvp
//gad:grad
func Compound(x, y float64) float64 {
	s := x
	s += y
	s *= x
	s -= 3 * y
	s /= y
	s += 1
	s *= s
	return s
}

// Neg uses unary minus on varied values and expressions.
//
//gad:jvp
//gad:grad
func Neg(x float64) float64 {
	y := -x
	return -(y * y * x) + -2*x - (-y)
}

// Reassign overwrites the same variables repeatedly.
//
//gad:jvp
//gad:grad
func Reassign(x float64) float64 {
	a := x
	a = a * a
	a = a + x
	a = a / (1 + x*x)
	b := a
	a = 2 * b
	return a - b*x
}

// Swap uses parallel assignments, which read before they write.
//
//gad:jvp
func Swap(x, y float64) (float64, float64) {
	x, y = y, x*y
	x, y = x+y, x-y
	return x, y
}

// Quotient divides by varied values twice.
//
//gad:jvp
//gad:grad
func Quotient(x, y, z float64) float64 {
	return x / y / z
}

// Constant ignores its argument: its derivative is zero.
//
//gad:jvp
//gad:grad
func Constant(x float64) float64 {
	return 42
}

// Identity returns its argument.
//
//gad:jvp
//gad:grad
func Identity(x float64) float64 {
	return x
}

// Untyped uses untyped constants of every kind in float expressions.
//
//gad:jvp
//gad:grad
func Untyped(x float64) float64 {
	const half = 1 / 2.0
	const three = 3
	return half*x*x + three*x + 'a' - 1e-3/x
}
