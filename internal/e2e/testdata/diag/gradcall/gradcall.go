package gradcall

//gad:grad
func F(x, y []float64, c bool) float64 {
	s := x // want "phi: reverse mode does not support slices or pointers chosen at run time yet"
	if c {
		s = y
	}
	return s[0] * s[1]
}

func grow(x float64) []float64 { return []float64{x, 2 * x} }

//gad:grad
func H(x float64) float64 {
	ys := grow(x) // want "call of gradcall.grow: reverse mode cannot differentiate this call yet"
	return ys[0] * ys[1]
}

// want +2 "exactly one float result"
//
//gad:grad
func G(x float64) (float64, float64) {
	return x, x
}

// want +2 "gonum=true needs a function of one"
//
//gad:grad gonum=true
func K(x []float64, y float64) float64 {
	return x[0] * y
}
