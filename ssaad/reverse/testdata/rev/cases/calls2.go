package cases

import "math"

func sumPtr(p *[]float64) float64 {
	s := 0.0
	for _, v := range *p {
		s += v * v
	}
	return s
}

// PtrSlice calls a function reading a slice through a pointer, then
// overwrites the slice.
func PtrSlice(x []float64) float64 {
	buf := make([]float64, len(x))
	copy(buf, x)
	s := sumPtr(&buf)
	buf[0] = buf[0] * s
	return s + sumPtr(&buf)*buf[1]
}

// Closure calls a function literal.
func Closure(x []float64, k float64) float64 {
	f := func(v float64) float64 { return math.Sin(v * k) }
	s := 0.0
	for _, v := range x {
		s += f(v) * v
	}
	return s
}

func rsum(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return x[0]*x[0] + rsum(x[1:])*0.5
}

// SubSlices calls functions on parts of a slice, one recursive.
func SubSlices(x []float64) float64 {
	return rsum(x) + sumExp(x[1:])*sumExp(x[:2])
}

func mid(a, b Point) Point { return Point{(a.X + b.X) * a.Y, (a.Y - b.Y) * b.X} }

func newPoint(x float64) *Point { return &Point{x * x, math.Cos(x)} }

// Structs calls functions taking and returning structs and pointers to
// fresh structs.
func Structs(x, y float64) float64 {
	p := mid(Point{x, y}, Point{y, x * y})
	q := newPoint(p.X + p.Y)
	q.X *= y
	return q.X*q.Y + p.X
}

func split(x []float64, a float64) ([]float64, float64) {
	out := make([]float64, len(x))
	s := 0.0
	for i := range x {
		out[i] = x[i] * a
		s += out[i]
	}
	return out, s
}

// SliceAndFloat calls a function returning a fresh slice and a float.
func SliceAndFloat(x []float64, a float64) float64 {
	y, s := split(x, a)
	return y[0]*s + y[len(y)-1]
}

// Branchy calls functions on some paths and in a loop with a
// data-dependent exit.
func Branchy(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x); i++ {
		if x[i] > 0 {
			s += sq(x[i]) * norm2(s, x[i])
		} else {
			s -= sumExp(x[i:])
		}
		if s > 4 {
			break
		}
	}
	return s
}

func scaleInPlace(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}

// InPlaceLoop calls a function writing its argument in a loop, and reads
// the slice after each call.
func InPlaceLoop(x []float64, a float64) float64 {
	buf := make([]float64, len(x))
	copy(buf, x)
	s := 0.0
	for k := range 3 {
		scaleInPlace(buf, a+float64(k))
		s += buf[0] * buf[len(buf)-1]
	}
	return s
}

// Copies copies between its parameters.
func Copies(dst, src []float64, a float64) float64 {
	copy(dst[1:], src)
	dst[0] = a * src[0]
	s := 0.0
	for _, v := range dst {
		s += v * v
	}
	return s
}

// Singles keeps float32 values in memory.
func Singles(x []float32, y float64) float64 {
	s := float32(0)
	for i := range x {
		x[i] = x[i] * float32(y)
		s += x[i] * x[i]
	}
	return float64(s) * y
}

// SpreadMean calls a variadic function with a slice.
func SpreadMean(x []float64) float64 { return mean(x...) * mean(x[0], x[1]) }

func grid(x []float64) [][]float64 {
	g := make([][]float64, 2)
	for i := range g {
		g[i] = make([]float64, len(x))
		for j := range x {
			g[i][j] = x[j] * float64(i+1) * x[j]
		}
	}
	return g
}

// Grid calls a function returning a fresh slice of slices and writes it.
func Grid(x []float64) float64 {
	g := grid(x)
	g[1][0] *= g[0][1]
	return g[1][0] + g[0][0]*g[1][1]
}

func pair(x float64) *[2]*Point {
	return &[2]*Point{{x, x * x}, {math.Sin(x), 1}}
}

// Pairs calls a function returning a pointer to pointers.
func Pairs(x float64) float64 {
	p := pair(x)
	p[1].Y = p[0].Y * x
	return p[0].X*p[1].X + p[1].Y
}

// Twin holds memory in an array and in a nested struct.
type Twin struct {
	Rows [2][]float64
	In   Layer
	K    float64
}

func twinSum(t Twin) float64 {
	s := t.K
	for _, r := range t.Rows {
		for _, v := range r {
			s += v * v * t.K
		}
	}
	return s + t.In.W[0]**t.In.B
}

// UseTwin passes a struct holding memory in an array and a nested struct
// to a function, by value.
func UseTwin(x, y []float64, k float64) float64 {
	b := k * 2
	t := Twin{Rows: [2][]float64{x, y}, In: Layer{W: y, B: &b}, K: k}
	return twinSum(t) * k
}

func axpy(dst, src []float64, a float64) {
	for i := range dst {
		dst[i] += a * src[i] * src[i]
	}
}

// SelfAxpy calls a function writing one slice argument and reading the
// other with the same slice as both.
func SelfAxpy(x []float64, a float64) float64 {
	y := make([]float64, len(x))
	copy(y, x)
	axpy(y, y, a)
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	return s
}

// Shifted calls it with overlapping parts of one slice, in a loop (where
// the driver reverses the call jointly rather than inline it).
func Shifted(x []float64, a float64) float64 {
	y := make([]float64, len(x))
	copy(y, x)
	for range 2 {
		axpy(y[1:], y[:len(y)-1], a)
	}
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	return s
}

// AB holds two slices.
type AB struct{ A, B []float64 }

func abStep(p *AB, k float64) {
	for i := range p.A {
		p.A[i] += k * p.B[i] * p.B[i]
	}
}

// SharedFields steps a struct whose two slices are the same.
func SharedFields(x []float64, k float64) float64 {
	y := make([]float64, len(x))
	copy(y, x)
	p := &AB{A: y, B: y}
	for range 2 {
		abStep(p, k)
	}
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	return s
}

// Captured adds into a captured variable from a function literal.
func Captured(x []float64, k float64) float64 {
	acc := 0.0
	add := func(v float64) { acc += v * v * k }
	for _, v := range x {
		add(v)
		acc *= 0.5
	}
	return acc
}

func mix(out, h []float64, w float64) {
	for i := range out {
		out[i] = h[i]*w + h[(i+1)%len(h)]*h[i]
	}
}

// Deep computes layers, each in memory of its own iteration that a
// callee writes, with a data-dependent exit inside.
func Deep(x []float64, n int) float64 {
	h := x
	for l := 0; l < n; l++ {
		out := make([]float64, len(h))
		mix(out, h, float64(l+1)*0.5)
		for i := range out {
			if out[i] > 1.5 {
				break
			}
			out[i] = math.Tanh(out[i])
		}
		h = out
	}
	s := 0.0
	for _, v := range h {
		s += v * v
	}
	return s
}
