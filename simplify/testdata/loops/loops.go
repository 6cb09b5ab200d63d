// Package loops holds the loop shapes of the tests of simplify.LoopForm:
// each function's comment says whether its loops must come out tested at
// the top by their counter ("canonical") or stay as they are ("kept").
package loops

// RangeInt is canonical: a range over an int, guarded on entry.
func RangeInt(x []float64, n int) float64 {
	s := 0.0
	for i := range n {
		s += x[i%len(x)] * float64(i)
	}
	return s
}

// RangeConst is canonical: a range over a constant (the guard folds away).
func RangeConst(x []float64) float64 {
	s := 0.0
	for i := range 5 {
		s = s*x[i] + 1
	}
	return s
}

// RangeSlice is canonical: go/ssa steps the counter before its test.
func RangeSlice(x []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * float64(i+1)
	}
	return s
}

// Nested is canonical: ranges of every kind nested.
func Nested(x []float64, n int) float64 {
	s := 0.0
	for i := range n {
		for j, v := range x {
			for k := range 3 {
				s += v * float64(i-j+k)
			}
		}
	}
	return s
}

// Break is canonical: a range over an int left by a break.
func Break(x []float64, n int) float64 {
	s := 0.0
	for i := range n {
		if s > 10 {
			break
		}
		s += x[i%len(x)] * x[i%len(x)]
	}
	return s
}

// LastIndex is canonical: the counter's value is read after the loop.
func LastIndex(x []float64) (float64, int) {
	i := 0
	for i = range 4 {
		if x[i] > 1 {
			break
		}
	}
	return x[i], i
}

// DoWhile is kept: its body runs once even when n ≤ 0.
func DoWhile(x []float64, n int) float64 {
	s := 0.0
	i := 0
	for {
		s += x[i%len(x)]
		i++
		if i >= n {
			break
		}
	}
	return s
}

// ConstNested is canonical: ranges over constants nested, the inner one's
// sum flowing out to the outer loop's latch and to the return.
func ConstNested(x []float64) float64 {
	s := 0.0
	for i := range 3 {
		for j := range 2 {
			s += x[(i+j)%len(x)] * float64(i+1)
		}
	}
	return s
}

// Continue is canonical: a continue in a range over a slice jumps to the
// header beside the latch.
func Continue(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		if v < 0 {
			continue
		}
		if v > 2.5 {
			break
		}
		s += v * v
	}
	return s
}
