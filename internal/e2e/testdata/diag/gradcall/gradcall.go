package gradcall

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
