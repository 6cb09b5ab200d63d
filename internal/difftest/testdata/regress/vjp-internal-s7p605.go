// A case of difftest: program 605 of seed 7 of its generator, minimized.
// It failed: F605 vjp internal: gadgen: internal error in vjp on F605_7: runtime error: invalid memory address or nil pointer dereference
//
//difftest:len 2

package p

// F605 is a random function.
//
//difftest:modes vjp
func F605(x1 []float64) (float64, float64) {
	s := 0.5

	m7 := Model{W: make([]float64, 3), B: x1[1]}

	a10 := integ605(func(u9 float64) float64 {
		return m7.W[0]
	}, -1.25, s, 1)

	s += a10

	return s, 0.5
}

func integ605(f func(float64) float64, a, b float64, n int) float64 {
	return 0.5
}
