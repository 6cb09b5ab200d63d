// Package loops is an end-to-end case of gadgen's forward mode: every form
// of for (three-clause, condition-only, infinite with break), range over
// slices, arrays and ints, labeled break and continue, nested loops and
// loops whose trip count depends on varied values.
package loops

//go:generate gadgen

import "math"

// SumSquares is a three-clause loop.
//
//gad:jvp
//gad:grad
func SumSquares(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x); i++ {
		s += x[i] * x[i]
	}
	return s
}

// Backward counts down by two.
//
//gad:jvp
//gad:grad
func Backward(x []float64) float64 {
	s := 0.0
	for i := len(x) - 1; i >= 0; i -= 2 {
		s = s*x[i] + float64(i+1)
	}
	return s
}

// Halve is a condition-only loop whose trip count depends on x.
//
//gad:jvp
//gad:grad
func Halve(x float64) float64 {
	s := x*x + 2
	for s > 1 {
		s /= 2
	}
	return s
}

// ExpSeries sums the Taylor series of eˣ in an infinite loop that breaks
// once the terms no longer change the sum.
//
//gad:jvp
//gad:grad
func ExpSeries(x float64) float64 {
	sum, term, n := 1.0, 1.0, 0.0
	for {
		n++
		term *= x / n
		sum += term
		if math.Abs(term) <= 1e-17*math.Abs(sum) {
			break
		}
	}
	return sum
}

// Sqrt runs Newton's iteration for √a until it converges, then breaks.
//
//gad:jvp
//gad:grad
func Sqrt(a float64) float64 {
	x := a
	if x < 1 {
		x = 1
	}
	for i := 0; i < 100; i++ {
		next := 0.5 * (x + a/x)
		if math.Abs(next-x) <= 1e-15*next {
			x = next
			break
		}
		x = next
	}
	return x
}

// Dot ranges over a slice with index and value.
//
//gad:jvp
//gad:grad
func Dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// Product ranges over values only.
//
//gad:jvp
//gad:grad
func Product(x []float64) float64 {
	p := 1.0
	for _, v := range x {
		p *= 1 + v
	}
	return p
}

// Weighted ranges over indices only.
//
//gad:jvp
//gad:grad
func Weighted(x []float64) float64 {
	s := 0.0
	for i := range x {
		s += float64(i+1) * x[i] * x[i]
	}
	return s
}

// Horner ranges over an array parameter.
//
//gad:jvp
//gad:grad
func Horner(c [4]float64, x float64) float64 {
	s := 0.0
	for i := range c {
		s = s*x + c[len(c)-1-i]
	}
	return s
}

// ArraySum ranges over the values of an array.
//
//gad:jvp
//gad:grad
func ArraySum(c [3]float64) float64 {
	s := 0.0
	for _, v := range c {
		s += v * v * v
	}
	return s
}

// PowN ranges over an int without a variable.
//
//gad:jvp
//gad:grad
func PowN(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= x
	}
	return p
}

// Harmonic ranges over an int.
//
//gad:jvp
//gad:grad
func Harmonic(x float64, n int) float64 {
	s := 0.0
	for i := range n {
		s += 1 / (x + float64(i))
	}
	return s
}

// Lower sums a[i]·a[j] over j < i with labeled continue, and stops the
// whole sum at the first product above 50 with labeled break.
//
//gad:jvp
//gad:grad
func Lower(a []float64) float64 {
	s := 0.0
outer:
	for i := range a {
		for j := range a {
			if j == i {
				continue outer
			}
			if a[i]*a[j] > 50 {
				break outer
			}
			s += a[i] * a[j]
		}
	}
	return s
}

// FirstLarge returns, from nested loops, the partial sum at the first
// pair whose product is large: its reverse starts in the middle of an
// inner iteration.
//
//gad:jvp
//gad:grad
func FirstLarge(a []float64) float64 {
	s := 0.0
	for i := range a {
		for j := range a {
			if a[i]*a[j] > 0.5 {
				return s + a[j]
			}
			s += a[i] * a[j]
		}
	}
	return s
}

// SkipNegative uses plain continue and break on varied conditions.
//
//gad:jvp
//gad:grad
func SkipNegative(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		if v < 0 {
			continue
		}
		if v > 10 {
			break
		}
		s += math.Sqrt(v)
	}
	return s
}

// Trace2 nests two three-clause loops: the trace of A² for an n×n A.
//
//gad:jvp
//gad:grad
func Trace2(a []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s += a[i*n+j] * a[j*n+i]
		}
	}
	return s
}

// Chebyshev evaluates T_n(x) by its three-term recurrence: two variables
// carried around the loop and updated together.
//
//gad:jvp
//gad:grad
func Chebyshev(x float64, n int) float64 {
	a, b := 1.0, x
	for i := 1; i < n; i++ {
		a, b = b, 2*x*b-a
	}
	if n == 0 {
		return a
	}
	return b
}

// Packed walks the strict lower triangle of a 4×4 matrix stored packed in
// l (6 entries), as the GMM's Q·x does: the inner loop starts at the outer
// index plus one and a second counter, idx, runs across both loops.
//
//gad:jvp
//gad:grad
func Packed(l, x []float64) float64 {
	const d = 4
	y := make([]float64, d)
	idx := 0
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			y[j] += l[idx] * x[i] * x[j]
			idx++
		}
	}
	s := 0.0
	k := 2 * d
	for j := d - 1; j >= 0; j-- {
		k -= 2
		s += y[j] * y[j] * float64(k+1)
	}
	return s
}

// RangeConst ranges over an int constant (Go 1.22): go/ssa tests the bound
// at the end of the body, and once 0 < 6 folds away the body is the loop's
// header and its own latch.
//
//gad:jvp
//gad:grad
func RangeConst(w, x []float64) float64 {
	s := 0.0
	for j := range 6 {
		s += w[j] * x[j]
	}
	return s
}

// RangeConstNested nests ranges over constants, the inner one reading the
// outer index.
//
//gad:jvp
//gad:grad
func RangeConstNested(a []float64) float64 {
	s := 0.0
	for i := range 3 {
		for j := range 3 {
			s += a[i*3+j] * a[j*3+i] * float64(i+1)
		}
	}
	return s
}

// Pairs sums over all pairs through nested loops whose trip counts are
// known before the outer one starts: the gradient grows its tape once,
// before the outer loop, for what both loops record (the tanh of each
// pair).
//
//gad:jvp
//gad:grad
func Pairs(x []float64) float64 {
	n := len(x)
	s := 0.0
	for i := 0; i < n; i++ {
		p := 0.0
		for j := 0; j < n; j++ {
			p += math.Tanh(x[i] * x[j])
		}
		s += p * p
	}
	return s
}

// Residuals sums the squared residuals of a polynomial with coefficients
// c fitted to sin(3t) at 2·len(c)+1 points of [0, 1], as GradBench's llsq
// does: the loops' bounds, len(c) of the range and 2·len(c)+1, are
// computed inside the loops, and the gradient still grows its tape once,
// before the outer loop.
//
//gad:jvp
//gad:grad
func Residuals(c []float64) float64 {
	s := 0.0
	for i := 0; i < 2*len(c)+1; i++ {
		t := float64(i) / float64(2*len(c))
		r := math.Sin(3 * t)
		p := 1.0
		for _, cj := range c {
			r -= cj * p
			p *= t
		}
		s += r * r
	}
	return s
}

// Rare runs its inner loop only for the elements above 1: the gradient
// reserves nothing for what the inner loop records, which could be far
// less than its trip count times the outer one's.
//
//gad:jvp
//gad:grad
func Rare(x []float64) float64 {
	s := 0.0
	for i := range x {
		if x[i] > 1 {
			for j := range x {
				s += math.Tanh(x[i] * x[j])
			}
		}
		s += x[i] * x[i]
	}
	return s
}
