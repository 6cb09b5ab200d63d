package gradcall

// tail returns a part of its argument: a result that shares memory with
// an argument other than the argument itself. (Recursive, so that reverse
// mode keeps the call rather than inlining it: it splits it.)
func tail(x []float64, n int) []float64 {
	if n > 0 {
		return tail(x, n-1)
	}
	return x[1:]
}

//gad:grad
func H(x []float64) float64 {
	ys := tail(x, 1) // split: its forward half returns the result's shadow
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

// Layer holds a slice a helper replaces.
type Layer struct{ W []float64 }

// widen replaces l.W by a longer copy, n times: a store of a slice into
// memory its caller reaches. Reverse mode inlines such a callee (the
// shadow of l then follows the store), but not a recursive one, and joint
// reversal cannot restore what it replaced.
func widen(l *Layer, n int) {
	if n > 1 {
		widen(l, n-1)
	}
	w := make([]float64, 2*len(l.W))
	copy(w, l.W)
	l.W = w
}

//gad:grad
func Widened(l *Layer) float64 {
	widen(l, 1) // reversed in two halves (split reversal): not refused
	return l.W[0] * l.W[1]
}

//gad:grad
func Cleared(x []float64) float64 {
	rows := [][]float64{x, x[1:]}
	s := rows[0][0] * rows[1][0]
	clear(rows) // want "builtin clear: reverse mode supports clear of slices of floats .* only, yet; not of \\[\\]\\[\\]float64"
	return s * float64(len(rows))
}

// Node is a list: memory of no bound, which reverse mode does not save.
type Node struct {
	X    []float64
	Next *Node
}

// scale scales the node's values in place.
func (n *Node) scale(k float64) {
	for i := range n.X {
		n.X[i] *= k
	}
}

//gad:grad wrt=k
func ScaledList(k float64, n *Node) float64 {
	n.scale(k) // want "call of gradcall.Node.scale: reverse mode can save and restore around a call only memory made of numbers in structs, arrays, slices and pointers, for now; not of recursive types"
	n.X[0] *= n.X[1]
	return n.X[0]
}

// Pair holds slices.
type Pair struct{ A, B []float64 }

// wrap returns fresh memory that holds its argument's: its caller's
// shadow of the result would not be the argument's. Reverse mode inlines
// such a callee, or splits it (a recursive one).
func wrap(x []float64, n int) *Pair {
	if n > 0 {
		return wrap(x, n-1)
	}
	return &Pair{A: x, B: make([]float64, len(x))}
}

//gad:grad
func Wrapped(x []float64) float64 {
	p := wrap(x, 1) // split
	return p.A[0] * p.A[1]
}
