package cases

import "math"

func ping(x float64, n int) float64 {
	if n == 0 {
		return x
	}
	return pong(x*x, n-1)
}

func pong(x float64, n int) float64 {
	if n == 0 {
		return x
	}
	return ping(math.Sin(x), n-1)
}

// Mutual calls mutually recursive functions.
func Mutual(x float64) float64 { return ping(x, 4) + pong(x, 3) }

// Scale returns a scaled copy of its receiver.
func (p Point) Scale(k float64) Point { return Point{p.X * k, p.Y * k * k} }

// Walk calls a method of a value receiver in a loop.
func Walk(p Point, k float64) float64 {
	for range 3 {
		p = p.Scale(k)
	}
	return p.X + p.Y
}
