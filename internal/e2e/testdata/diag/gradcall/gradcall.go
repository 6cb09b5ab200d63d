package gradcall

// tail returns a part of its argument: a result that shares memory with
// an argument other than the argument itself.
func tail(x []float64) []float64 { return x[1:] }

//gad:grad
func H(x []float64) float64 {
	ys := tail(x) // want "call of gradcall.tail: reverse mode does not support calls returning slices or pointers that may share memory"
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
