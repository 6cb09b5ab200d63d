// Package memory is an end-to-end case of gadgen's forward mode: local
// slices, arrays and structs; reading and writing slice elements
// (destination-first outputs, in-place updates); struct fields by value and
// through pointers; pointers to floats; slices of slices and of structs.
package memory

//go:generate gadgen

import "math"

// CumSquares fills a local slice made with make, then reduces it.
//
//gad:jvp
//gad:grad
func CumSquares(x []float64) float64 {
	c := make([]float64, len(x))
	acc := 0.0
	for i, v := range x {
		acc += v
		c[i] = acc * acc
	}
	s := 0.0
	for _, v := range c {
		s += v
	}
	return s
}

// Squares grows a local slice with append.
//
//gad:jvp
//gad:grad
func Squares(x []float64) float64 {
	var sq []float64
	for _, v := range x {
		sq = append(sq, v*v)
	}
	return sq[0]*sq[len(sq)-1] + sq[len(sq)/2]
}

// Powers fills a local array with a dynamic index.
//
//gad:jvp
//gad:grad
func Powers(x float64) float64 {
	var m [5]float64
	m[0] = 1
	for i := 1; i < len(m); i++ {
		m[i] = m[i-1] * x
	}
	return m[4] - 2*m[3] + m[1]
}

// Det3 reads an array parameter passed by value: the determinant of a
// row-major 3×3 matrix.
//
//gad:jvp
//gad:grad
func Det3(a [9]float64) float64 {
	return a[0]*(a[4]*a[8]-a[5]*a[7]) - a[1]*(a[3]*a[8]-a[5]*a[6]) + a[2]*(a[3]*a[7]-a[4]*a[6])
}

// Pair is a struct of two floats.
type Pair struct {
	A, B float64
}

// Swirl builds a local struct and updates its fields.
//
//gad:jvp
//gad:grad
func Swirl(x, y float64) float64 {
	p := Pair{A: x, B: y}
	p.A, p.B = p.B*p.A, p.A+p.B
	q := p
	q.A *= 2
	return p.A - q.A*p.B
}

// Rect has a field that holds no float.
type Rect struct {
	Name string
	W, H float64
}

// Area reads the fields of a struct passed by value.
//
//gad:jvp
//gad:grad
func Area(r Rect) float64 {
	return r.W*r.H + r.W/r.H
}

// Particle is a point mass in the plane.
type Particle struct {
	M    float64
	X, V [2]float64
}

// Kinetic reads through a pointer to a struct.
//
//gad:jvp
//gad:grad
func Kinetic(p *Particle) float64 {
	return 0.5 * p.M * (p.V[0]*p.V[0] + p.V[1]*p.V[1])
}

// Step writes through a pointer to a struct: one explicit Euler step under
// a drag proportional to the speed.
//
//gad:jvp
func Step(p *Particle, dt float64) {
	speed := math.Hypot(p.V[0], p.V[1])
	for k := range p.X {
		p.X[k] += dt * p.V[k]
		p.V[k] -= dt * speed * p.V[k] / p.M
	}
}

// Accumulate adds x² to *sum.
//
//gad:jvp
func Accumulate(sum *float64, x float64) {
	*sum += x * x
}

// MulVec stores into dst the product of the row-major len(dst)×n matrix a
// with x.
//
//gad:jvp
func MulVec(dst []float64, a []float64, n int, x []float64) {
	for i := range dst {
		s := 0.0
		for j := 0; j < n; j++ {
			s += a[i*n+j] * x[j]
		}
		dst[i] = s
	}
}

// Axpy updates y in place: y += alpha·x.
//
//gad:jvp
func Axpy(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

// Rotate writes into dst a rotation of the odd elements of x, leaving the
// others alone: a destination written in part only.
//
//gad:jvp
func Rotate(dst, x []float64) {
	n := len(x)
	for i := 1; i < n; i += 2 {
		dst[i] = x[(i+2)%n] * x[i]
	}
}

// Shift copies x shifted left by one into dst, with the builtin copy.
//
//gad:jvp
func Shift(dst, x []float64) {
	copy(dst, x[1:])
	dst[len(dst)-1] = 2 * x[0]
}

// Trace reads a slice of slices.
//
//gad:jvp
func Trace(a [][]float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i][i] * a[i][len(a)-1-i]
	}
	return s
}

// Centroid reads a slice of structs and returns two results.
//
//gad:jvp
func Centroid(ps []Pair) (float64, float64) {
	var c Pair
	for _, p := range ps {
		c.A += p.A
		c.B += p.B * p.B
	}
	n := float64(len(ps))
	return c.A / n, c.B / n
}

// Tail reads subslices.
//
//gad:jvp
//gad:grad
func Tail(x []float64) float64 {
	t := x[1:]
	h := x[:2]
	return t[0]*t[len(t)-1] + h[0]*h[1]
}

// addScaled adds a·sin(src) into dst. Smooth calls it, at two sites (so
// that reverse mode keeps the calls), on slices it made and on its
// parameter, so its reverse (addScaledReverse) leaves out its alias
// checks: the calls show the slices apart.
func addScaled(dst, src []float64, a float64) {
	for i := range dst {
		dst[i] += a * math.Sin(src[i])
	}
}

// Smooth accumulates scaled copies of x into a slice of its own, and of
// that slice into another.
//
//gad:jvp
//gad:grad
func Smooth(x []float64) float64 {
	y := make([]float64, len(x))
	z := make([]float64, len(x))
	s := 0.0
	for k := 1; k <= 3; k++ {
		addScaled(y, x, float64(k))
		s += y[0] * y[len(y)-1]
	}
	addScaled(z, y, 0.5)
	return s + z[0]
}

// mixInto adds a·sin(src) into dst. Halves calls it, at two sites, on two
// halves of one slice, which no check of Halves shows apart, so its
// reverse (mixIntoReverse) keeps the check that dst and src do not start
// at the same element.
func mixInto(dst, src []float64, a float64) {
	for i := range dst {
		dst[i] += a * math.Sin(src[i])
	}
}

// Halves mixes the halves of a copy of x into each other.
//
//gad:jvp
//gad:grad
func Halves(x []float64) float64 {
	y := append([]float64(nil), x...)
	n := len(y) / 2
	s := 0.0
	for k := 1; k <= 2; k++ {
		mixInto(y[:n], y[n:2*n], float64(k))
		s += y[0] * y[n-1]
	}
	mixInto(y[n:2*n], y[:n], 0.5)
	return s + y[n]
}

// blur smooths src into dst depth times, recursively, through scratch it
// makes in one branch: its reverse (blurReverse) calls itself on that
// scratch, a φ of the scratch and nil, which leaves out its checks too.
func blur(dst, src []float64, depth int) {
	if depth == 0 {
		copy(dst, src)
		return
	}
	tmp := make([]float64, len(src))
	n := len(src)
	for i := range src {
		tmp[i] = 0.5*src[i] + 0.25*(src[max(i-1, 0)]+src[min(i+1, n-1)])
	}
	blur(dst, tmp, depth-1)
}

// Blurred blurs x twice, at two depths, and weighs the results.
//
//gad:jvp
//gad:grad
func Blurred(x []float64) float64 {
	a := make([]float64, len(x))
	b := make([]float64, len(x))
	blur(a, x, 2)
	blur(b, a, 1)
	s := 0.0
	for i := range b {
		s += math.Sin(b[i]) * a[i]
	}
	return s
}
