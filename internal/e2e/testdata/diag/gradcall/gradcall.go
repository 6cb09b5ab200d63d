package gradcall

func fill(dst []float64, x float64) float64 {
	dst[0] = x
	return x
}

//gad:grad
func F(x []float64) float64 {
	y := make([]float64, 1)
	return fill(y, x[0]) + y[0] // want "call of gradcall.fill: reverse mode does not differentiate calls that write through their arguments yet"
}

func pair(x float64) (float64, float64) { return x, 2 * x }

//gad:grad
func H(x float64) float64 {
	a, b := pair(x) // want "call of gradcall.pair: reverse mode differentiates calls of functions with one float result only"
	return a * b
}

// want +2 "exactly one float result"
//
//gad:grad
func G(x float64) (float64, float64) {
	return x, x
}
