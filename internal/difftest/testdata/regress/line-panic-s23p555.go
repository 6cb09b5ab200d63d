// A case of difftest: program 555 of seed 23 of its generator, minimized.
// It failed: F555 line panic: runtime error: index out of range [0] with length 0 at /tmp/difftest-412802532/line/c4_grad.go:28 +0x15c
//
//difftest:len 1

package p

// F555 is a random function.
//
//difftest:modes line
func F555(mv2 Model, x3 []float64) float64 {
	s := mv2.score555(x3)

	a5 := mv2.W[0]

	s += a5
	return s
}

func (m *Model) score555(x []float64) float64 {
	return 0.5
}
