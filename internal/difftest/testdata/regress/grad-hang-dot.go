// A case of difftest written by hand: the bug that a user reported. The
// reverse loop of a range over an int constant never counts j down: the
// gradient hangs.
//
//difftest:len 6

package p

// Dot is Σ w[j]·x[j] over six elements.
//
//difftest:modes grad
func Dot(w, x []float64) float64 {
	s := 0.0
	for j := range 6 {
		s += w[j] * x[j]
	}
	return s
}
