// Package recursion is an end-to-end case of gadgen's forward mode:
// directly and mutually recursive functions, recursion on subslices, and
// recursion with two recursive calls.
package recursion

import "math"

//go:generate gadgen

// Pow returns xⁿ by recursive squaring.
//
//gad:jvp
//gad:grad
func Pow(x float64, n int) float64 {
	if n == 0 {
		return 1
	}
	if n < 0 {
		return 1 / Pow(x, -n)
	}
	h := Pow(x, n/2)
	if n%2 == 0 {
		return h * h
	}
	return h * h * x
}

// Horner returns c[0] + x·(c[1] + x·(…)), recursing on c[1:].
//
//gad:jvp
//gad:grad
func Horner(c []float64, x float64) float64 {
	if len(c) == 0 {
		return 0
	}
	return c[0] + x*Horner(c[1:], x)
}

// Chebyshev returns T_n(x) from T_n = 2x·T_{n−1} − T_{n−2}, with two
// recursive calls.
//
//gad:jvp
//gad:grad
func Chebyshev(n int, x float64) float64 {
	switch n {
	case 0:
		return 1
	case 1:
		return x
	}
	return 2*x*Chebyshev(n-1, x) - Chebyshev(n-2, x)
}

// Even and odd recurse into each other.
//
//gad:jvp
//gad:grad
func Even(x float64, n int) float64 {
	if n == 0 {
		return x
	}
	return 1 + x*odd(x, n-1)
}

func odd(x float64, n int) float64 {
	if n == 0 {
		return x * x
	}
	return x - Even(x/2, n-1)
}

// ContinuedFraction returns x + 1/(1 + x + 1/(1 + x + …)), depth levels
// deep, recursing on a varied accumulator.
//
//gad:jvp
//gad:grad
func ContinuedFraction(x float64, depth int) float64 {
	if depth == 0 {
		return x
	}
	return x + 1/(1+ContinuedFraction(x, depth-1))
}

// PingPong squares x back and forth between two work arrays by a
// recursion that swaps them: pingpong writes its second parameter
// directly and its first only through the recursive call, which gadgen's
// summary of what it writes must find (a fixed point over the recursion)
// for the reverse sweep to restore a before each step's reverse.
//
//gad:jvp
//gad:grad
func PingPong(x []float64) float64 {
	a := make([]float64, len(x))
	b := make([]float64, len(x))
	copy(a, x)
	pingpong(a, b, 3)
	return b[0] + a[len(a)-1]
}

func pingpong(a, b []float64, n int) {
	if n == 0 {
		return
	}
	for i := range a {
		b[i] = math.Sin(a[i]) + a[(i+1)%len(a)]
	}
	pingpong(b, a, n-1)
}
