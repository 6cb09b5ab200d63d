package gradcall

//gad:grad
func F(x, y []float64, c bool) float64 {
	s := x // want "phi: reverse mode does not support slices or pointers chosen at run time yet"
	if c {
		s = y
	}
	return s[0] * s[1]
}

func pair(x float64) (float64, float64) { return x, 2 * x }

//gad:grad
func H(x float64) float64 {
	a, b := pair(x) // want "call of gradcall.pair: reverse mode differentiates calls of functions with one result"
	return a * b
}

// want +2 "exactly one float result"
//
//gad:grad
func G(x float64) (float64, float64) {
	return x, x
}
