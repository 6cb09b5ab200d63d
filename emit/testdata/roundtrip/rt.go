// Package rt holds ordinary Go functions for the emitter's round-trip
// test: each is lowered to IR by package frontend, emitted back as a
// function of the same package with the suffix RT, and both are run on
// the same inputs (check_test.go.txt).
package rt

import (
	"math"
	"time"
)

type Point struct{ X, Y float64 }

func (p Point) Norm() float64 { return math.Hypot(p.X, p.Y) }

func (p *Point) Scale(k float64) {
	p.X *= k
	p.Y *= k
}

var Counter int

func SumSquares(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}

func Dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

func MatVec(y, a, x []float64, n int) {
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < n; j++ {
			s += a[i*n+j] * x[j]
		}
		y[i] = s
	}
}

func Find(x []float64, v float64) int {
	for i, xi := range x {
		if xi == v {
			return i
		}
	}
	return -1
}

func SumUntil(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x); i++ {
		if x[i] < 0 {
			continue
		}
		if x[i] > 10 {
			break
		}
		s += x[i]
	}
	return s
}

func Lower(a []float64, n int) float64 {
	s := 0.0
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := a[i*n+j]
			if v < 0 {
				continue outer
			}
			if v > 100 {
				break outer
			}
			s += v
		}
	}
	return s
}

func Fall(k int, x float64) float64 {
	s := 0.0
	switch k {
	case 3, 4:
		s = x * x * x
		fallthrough
	case 2:
		s += x * x
		fallthrough
	case 1:
		s += x
	}
	return s
}

func Fib(n int) (a float64) {
	a, b := 0.0, 1.0
	for range n {
		a, b = b, a+b
	}
	return a
}

func Clamp(x, lo, hi float64) float64 {
	var y float64
	if x < lo {
		y = lo
	} else if x > hi {
		y = hi
	} else {
		y = x
	}
	return y
}

func CountIn(x []float64, lo, hi float64) (n int) {
	for i := 0; i < len(x) && x[i] >= 0; i++ {
		if x[i] > lo && x[i] < hi || x[i] == 0 {
			n++
		}
	}
	return
}

func Polar(x, y float64) (r, theta float64) {
	r = math.Hypot(x, y)
	theta = math.Atan2(y, x)
	return
}

func DivMod(a, b int) (q, r int) {
	q = a / b
	r = a % b
	return
}

func UseDivMod(a, b int) int {
	q, r := DivMod(a, b)
	return q*b + r
}

func Norm2(p Point) float64 { return p.X*p.X + p.Y*p.Y }

func Grow(p *Point, k float64) float64 {
	p.Scale(k)
	return p.Norm()
}

func Powers(x float64) float64 {
	var m [5]float64
	m[0] = 1
	for i := 1; i < 5; i++ {
		m[i] = m[i-1] * x
	}
	return m[4] - 2*m[3] + m[1]
}

func Cum(x []float64) []float64 {
	c := make([]float64, len(x))
	acc := 0.0
	for i, v := range x {
		acc += v
		c[i] = acc
	}
	return c
}

func Squares(x []float64) []float64 {
	var sq []float64
	for _, v := range x {
		sq = append(sq, v*v)
	}
	return sq
}

func Bits(n uint64) int {
	c := 0
	for n != 0 {
		n &= n - 1
		c++
	}
	return c
}

func Collatz(n int) int {
	steps := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return steps
}

func Newton(a float64) float64 {
	x := a
	for i := 0; i < 50; i++ {
		next := 0.5 * (x + a/x)
		if math.Abs(next-x) < 1e-15 {
			return next
		}
		x = next
	}
	return x
}

func Mean(xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func CallMean(a, b float64) float64 { return Mean(a, b, 1) }

func Sqrt(x float64) float64 {
	if x < 0 {
		panic("negative")
	}
	return math.Sqrt(x)
}

func Xor(a, b bool) bool { return a && !b || b && !a }

func Count(s string, c byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
		}
	}
	return n
}

func Tick() int {
	Counter++
	return Counter
}

func Min3(a, b, c float64) float64 { return min(a, b, c) }

func Swap(x, y float64, n int) (float64, float64) {
	for i := 0; i < n; i++ {
		x, y = y, x
	}
	return x, y
}

func Rotate(p Point, n int) Point {
	for range n {
		p = Point{-p.Y, p.X}
	}
	return p
}

func Float32(x float32) float32 {
	s := float32(0)
	for i := 0; i < 3; i++ {
		s += x * 0.5
	}
	return s
}

// Activation selects a nonlinearity.
type Activation int

const (
	Tanh Activation = iota
	Sigmoid
	ReLU
	Softplus
	Default = Tanh // a second name for 0: Tanh is not the only one
)

func Activate(a Activation, z float64) float64 {
	switch a {
	case Sigmoid:
		return 1 / (1 + math.Exp(-z))
	case ReLU:
		return max(z, 0)
	case Softplus:
		return math.Log1p(math.Exp(z))
	}
	return math.Tanh(z)
}

func IsSmooth(a Activation) bool { return a != ReLU }

func IsDefault(a Activation) bool { return a == Default }

func SumCodes(codes []int) int {
	s := 0
loop:
	for _, c := range codes {
		switch c {
		case 0:
			continue
		case 1, 2:
			s += c
		case 9:
			break loop
		default:
			s += 10 * c
		}
	}
	return s
}

func Apply(op string, a, b float64) float64 {
	switch op {
	case "+":
		return a + b
	case "-":
		return a - b
	case "*":
		return a * b
	}
	return math.NaN()
}

func Seconds(d time.Duration) float64 {
	var s float64
	switch d {
	case time.Second:
		s = 1
	case time.Minute:
		s = 60
	default:
		s = d.Seconds()
	}
	return s
}

func Sign(x float64) float64 {
	if x < 0 {
		return -1
	} else if x > 0 {
		return 1
	}
	return 0
}

func Pick(k int, a, b float64) float64 {
	if k == 0 {
		return a
	} else if k == 1 {
		return b
	}
	return 0
}

type Vec3 struct{ X, Y, Z float64 }

func Cross(a, b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

func Scaled(s float64) [2][2]float64 { return [2][2]float64{{s, 0}, {0, s}} }

func Corners(x float64) []Point { return []Point{{X: x}, {Y: x}} }

func Origin(p Point) bool {
	if p == (Point{}) {
		return true
	}
	return p == Point{X: 1}
}

func InRange(x, lo, hi float64) bool {
	ok := lo <= x && x <= hi
	return ok
}

func Consume(x []float64) float64 {
	v := x[0]
	x[0] = 0
	return v
}

func PosThenConsume(x []float64) (bool, float64) {
	pos := x[0] > 0 || len(x) > 1
	return pos, Consume(x)
}

type Layer struct {
	Act   Activation
	Scale float64
}

func (l Layer) Apply(z float64) float64 {
	switch l.Act {
	case Tanh:
		z = math.Tanh(z)
	case Sigmoid:
		z = 1 / (1 + math.Exp(-z))
	case ReLU:
		z = max(z, 0)
	}
	return l.Scale * z
}
