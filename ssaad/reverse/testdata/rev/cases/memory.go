package cases

import "math"

// Prefix writes its parameter in place: prefix products.
func Prefix(x []float64) float64 {
	for i := 1; i < len(x); i++ {
		x[i] = x[i] * x[i-1]
	}
	return x[len(x)-1]
}

// Squares overwrites each element with a nonlinear function of itself:
// the reverse needs the old values (restored).
func Squares(x []float64) float64 {
	s := 0.0
	for k := 0; k < 3; k++ {
		for i := range x {
			x[i] = math.Sin(x[i]) * x[i]
			s += x[i]
		}
	}
	return s
}

// Smooth writes a local buffer in a loop and reads it back.
func Smooth(x []float64) float64 {
	buf := make([]float64, len(x))
	for i := range x {
		buf[i] = x[i] * x[i]
	}
	for k := 0; k < 2; k++ {
		for i := 1; i < len(buf)-1; i++ {
			buf[i] = (buf[i-1] + buf[i+1]) * buf[i]
		}
	}
	s := 0.0
	for _, v := range buf {
		s += v
	}
	return s
}

// Collect appends in a loop (growth).
func Collect(x []float64) float64 {
	var out []float64
	for i := range x {
		out = append(out, x[i]*float64(i+1))
		out = append(out, math.Sin(x[i]))
	}
	out = append(out, x...)
	s := 0.0
	for i := range out {
		s += out[i] * out[len(out)-1-i]
	}
	return s
}

// PerIter allocates memory in each iteration of a loop.
func PerIter(x []float64) float64 {
	s := 0.0
	for i := range x {
		t := make([]float64, 3)
		t[0] = x[i]
		t[1] = t[0] * t[0]
		t[2] = math.Exp(t[1]) * s
		s += t[2] + t[1]
	}
	return s
}

// Layer holds weights behind a slice and a pointer.
type Layer struct {
	W []float64
	B *float64
	N int
}

// Forward reads a struct of a slice and a pointer through a pointer.
func Forward(l *Layer, x []float64) float64 {
	s := *l.B
	for i := 0; i < l.N; i++ {
		s += math.Tanh(l.W[i] * x[i])
	}
	return s * s
}

// ByValue takes a struct holding a slice by value.
func ByValue(l Layer, x float64) float64 {
	s := 0.0
	for _, w := range l.W {
		s += w * x * *l.B
	}
	return s
}

// Update writes through a struct pointer parameter.
func Update(l *Layer, g []float64, rate float64) float64 {
	for i := range l.W {
		l.W[i] -= rate * g[i] * l.W[i]
	}
	*l.B *= rate
	return l.W[0] * *l.B
}

// Widen replaces a slice in the caller's memory.
func Widen(l *Layer) float64 {
	w := make([]float64, len(l.W)+1)
	copy(w, l.W)
	w[len(l.W)] = *l.B
	l.W = w
	s := 0.0
	for _, v := range l.W {
		s += v * v
	}
	return s
}

// CopyClear uses copy and clear.
func CopyClear(x, y []float64) float64 {
	buf := make([]float64, len(x)+1)
	n := copy(buf[1:], x)
	buf[0] = y[0] * float64(n)
	s := 0.0
	for i := range buf {
		s += buf[i] * buf[i] * y[i%len(y)]
	}
	clear(buf[1:])
	for _, v := range buf {
		s += v * 3
	}
	return s
}

// Matrix writes rows of a slice of slices.
func Matrix(a [][]float64) float64 {
	for i := 1; i < len(a); i++ {
		for j := range a[i] {
			a[i][j] += a[i-1][j] * a[i][j]
		}
	}
	return a[len(a)-1][0] + a[len(a)-1][1]
}

// Arrays writes through a pointer to an array and slices it.
func Arrays(a [3]float64, p *[2]float64) float64 {
	p[0] = a[0] * a[1]
	s := p[:]
	s[1] = a[2] * s[0]
	return a[0] + p[1]
}

// Indirect stores through a pointer to a pointer.
func Indirect(x float64) float64 {
	v := new(float64)
	pp := &v
	**pp = x * x
	return *v * x
}

// Scale writes its slice and returns nothing (vjp).
func Scale(x []float64, a float64) {
	for i := range x {
		x[i] = x[i] * a * x[i]
	}
}

// Ramp returns a fresh slice (vjp).
func Ramp(x float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = x * float64(i+1) * x
	}
	return append(s, math.Sin(x))
}

// Literals appends a composite literal to a slice per iteration and sums
// products of their fields: the reverse reads the literals' shadows, never
// the literals, so it records the shadows alone (one pointer an iteration,
// with the four slice headers of the append).
func Literals(v0 float64, n int) float64 {
	var ps []Point
	for k := 0; k < n; k++ {
		ps = append(ps, Point{X: v0 * float64(k+1), Y: v0})
	}
	sum := 0.0
	for _, p := range ps {
		sum += p.X * p.Y
	}
	return sum
}
