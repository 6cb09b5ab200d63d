package gradcall

func sq(x float64) float64 { return x * x }

//gad:grad
func F(x float64) float64 {
	return sq(x) + 1 // want "call of gradcall.sq: reverse mode does not differentiate calls"
}

// want +2 "exactly one float result"
//
//gad:grad
func G(x float64) (float64, float64) {
	return x, x
}
