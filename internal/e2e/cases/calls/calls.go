// Package calls is an end-to-end case of gadgen's forward mode: calls to
// functions and methods of the same package and of another package whose
// source is available (geom), which gadgen differentiates transitively;
// callees with several results, with int parameters, writing into a
// destination, and called with constant arguments only.
package calls

//go:generate gadgen

import (
	"math"

	"github.com/gadgen/gadgen/internal/e2e/cases/geom"
)

func square(x float64) float64 { return x * x }

func cubicPlus(x float64) float64 { return x*x*x + 2*x }

// SumSq calls a helper in a loop.
//
//gad:jvp
//gad:grad
func SumSq(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += square(v)
	}
	return s
}

// Nested composes calls.
//
//gad:jvp
//gad:grad
func Nested(x float64) float64 {
	return square(cubicPlus(square(x)+1)) - cubicPlus(x)
}

func polar(x, y float64) (r, theta float64) {
	return math.Hypot(x, y), math.Atan2(y, x)
}

// PolarProduct calls a function with two results.
//
//gad:jvp
//gad:grad
func PolarProduct(x, y float64) float64 {
	r, th := polar(x, y)
	return r * th
}

func ipow(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= x
	}
	return p
}

// Powers calls a helper with an int parameter.
//
//gad:jvp
//gad:grad
func Powers(x float64) float64 {
	return ipow(x, 3) - 2*ipow(x, 2) + ipow(x, 0)
}

// scaleInto stores a·x into dst.
func scaleInto(dst []float64, a float64, x []float64) {
	for i, v := range x {
		dst[i] = a * v
	}
}

// ScaledNorm calls a helper that writes into a local destination.
//
//gad:jvp
//gad:grad
func ScaledNorm(a float64, x []float64) float64 {
	tmp := make([]float64, len(x))
	scaleInto(tmp, a, x)
	return SumSq(tmp)
}

// Mixed calls the same helper with a constant and with a varied argument.
//
//gad:jvp
//gad:grad
func Mixed(x float64) float64 {
	c := square(3.0)
	return c*x + square(x)
}

// Affine is f(x) = A·x + B.
type Affine struct {
	A, B float64
}

// Apply evaluates f at x.
func (f Affine) Apply(x float64) float64 { return f.A*x + f.B }

// Compose calls methods, one of them on a receiver that holds varied
// values.
//
//gad:jvp
//gad:grad
func Compose(x float64) float64 {
	f := Affine{A: 2, B: 1}
	g := Affine{A: x, B: -1}
	return g.Apply(f.Apply(x))
}

// TriangleArea calls functions and methods of package geom on struct
// values.
//
//gad:jvp
//gad:grad
func TriangleArea(a, b, c geom.Vec3) float64 {
	return 0.5 * geom.Cross(b.Sub(a), c.Sub(a)).Norm()
}

// Angle calls geom with a result of math.
//
//gad:jvp
//gad:grad
func Angle(a, b geom.Vec3) float64 {
	return math.Acos(geom.Dot(a, b) / (a.Norm() * b.Norm()))
}

// PathLength calls geom on subslices: the length of the polyline through
// the points (x[3i], x[3i+1], x[3i+2]).
//
//gad:jvp
//gad:grad
func PathLength(x []float64) float64 {
	s := 0.0
	for i := 3; i+3 <= len(x); i += 3 {
		s += geom.Dist(x[i-3:i], x[i:i+3])
	}
	return s
}

// UnitTangent calls a geom function that writes into dst.
//
//gad:jvp
func UnitTangent(dst, x []float64) {
	geom.Normalize(dst, x)
}

// TriArea calls a pointer-receiver method of geom through a pointer.
//
//gad:jvp
//gad:grad
func TriArea(t *geom.Triangle) float64 {
	return t.Area()
}

// Midpoint returns a struct from package geom.
//
//gad:jvp
func Midpoint(a, b geom.Vec3) geom.Vec3 {
	return a.Add(b).Scale(0.5)
}

// mulTo stores the elementwise product of a and b into dst, in gonum's
// destination-first style; called in place, dst is a or b.
func mulTo(dst, a, b []float64) {
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

// rotateTo stores a rotated by one into dst: in place, it reads elements
// it has overwritten.
func rotateTo(dst, a []float64) {
	last := a[len(a)-1]
	for i := len(dst) - 1; i >= 1; i-- {
		dst[i] = a[i-1]
	}
	dst[0] = last
}

// InPlace calls destination-first helpers with their destination as an
// input too (gonum's floats.MulTo(dst, dst, s) idiom): the gradient
// differentiates what such a call computes.
//
//gad:jvp
//gad:grad
func InPlace(x, y []float64) float64 {
	tmp := make([]float64, len(x))
	copy(tmp, x)
	mulTo(tmp, tmp, y)
	mulTo(tmp, tmp, tmp)
	rotateTo(tmp, tmp)
	mulTo(tmp, y, tmp)
	s := 0.0
	for i, v := range tmp {
		s += v * float64(i+1)
	}
	return s
}

// fresh returns a new slice of len(a) zeros: its tangent is zero, but
// one of the slice's length.
func fresh(a []float64, c float64) []float64 {
	r := make([]float64, len(a))
	return r
}

// FreshSlice indexes a slice that a helper made of constants: forward
// mode returned no tangent for it, and FreshSliceJVP's index panicked
// (found by difftest).
//
//gad:jvp
//gad:grad
func FreshSlice(a []float64) float64 {
	t := fresh(a, a[0])
	t[1] = a[1] * a[1]
	return t[2] + t[1]*a[0]
}
