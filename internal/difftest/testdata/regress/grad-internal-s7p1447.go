// A case of difftest: program 1447 of seed 7 of its generator, minimized.
// It failed: F1447 grad internal: gadgen: internal error in grad on F1447_8: runtime error: index out of range [2] with length 2
//
//difftest:len 1

package p

// F1447 is a random function.
//
//difftest:modes grad
func F1447(n int, x2 []float64) float64 {
	s := x2[n-1]

	m4 := Model{W: make([]float64, 2), B: s}

	a14 := 0.5

	a14 += integ1447(func(u16 float64) float64 {
		return m4.W[n-1]
	}, s, x2[n-1], 1)

	s += a14
	return s
}

func integ1447(f func(float64) float64, a, b float64, n int) float64 {
	return 0.5
}
