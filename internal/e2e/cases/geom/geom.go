// Package geom is a small helper package for the end-to-end cases: it has
// no directives of its own, and package calls uses it, so gadgen must
// differentiate its functions transitively, from source in another
// package.
package geom

import "math"

// Vec3 is a vector in space.
type Vec3 struct {
	X, Y, Z float64
}

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a − b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a.X, s * a.Y, s * a.Z} }

// Norm returns |a|.
func (a Vec3) Norm() float64 { return math.Sqrt(Dot(a, a)) }

// Dot returns a·b.
func Dot(a, b Vec3) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// Cross returns a × b.
func Cross(a, b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Triangle is a triangle in space.
type Triangle struct {
	A, B, C Vec3
}

// Area returns the area of t.
func (t *Triangle) Area() float64 {
	return 0.5 * Cross(t.B.Sub(t.A), t.C.Sub(t.A)).Norm()
}

// Dist returns the Euclidean distance between p and q. It panics if their
// lengths differ.
func Dist(p, q []float64) float64 {
	if len(p) != len(q) {
		panic("geom: length mismatch")
	}
	s := 0.0
	for i := range p {
		d := p[i] - q[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// Normalize stores x/|x| into dst. It panics if the lengths differ.
func Normalize(dst, x []float64) {
	if len(dst) != len(x) {
		panic("geom: length mismatch")
	}
	n := 0.0
	for _, v := range x {
		n += v * v
	}
	n = math.Sqrt(n)
	for i, v := range x {
		dst[i] = v / n
	}
}

// Polyline is a path through points in the plane, flattened (x0, y0, x1,
// y1, …), that keeps the lengths of its segments once measured.
type Polyline struct {
	Pts  []float64
	Segs []float64 // the segments' lengths, set by Measure
}

// Measure stores the lengths of p's segments in p.Segs (a slice it
// allocates) and returns the path's length.
func (p *Polyline) Measure() float64 {
	segs := make([]float64, len(p.Pts)/2-1)
	total := 0.0
	for i := range segs {
		segs[i] = Dist(p.Pts[2*i:2*i+2], p.Pts[2*i+2:2*i+4])
		total += segs[i]
	}
	p.Segs = segs
	return total
}
