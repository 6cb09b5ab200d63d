package gradcall

// P is a struct value that carries derivatives.
type P struct{ A, B float64 }

//gad:grad
func F(p P) float64 { // want "parameter p: reverse mode does not support varied parameters of type"
	return p.A * p.B
}

func pair(x float64) (float64, float64) { return x, 2 * x }

//gad:grad
func H(x float64) float64 {
	a, b := pair(x) // want "call of gradcall.pair: reverse mode differentiates calls of functions with one float result or none only"
	return a * b
}

// want +2 "exactly one float result"
//
//gad:grad
func G(x float64) (float64, float64) {
	return x, x
}
