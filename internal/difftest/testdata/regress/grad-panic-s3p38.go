// A case of difftest: program 38 of seed 3 of its generator, minimized.
// It failed: F38 grad panic: runtime error: slice bounds out of range [:-1] (in the generated reverse of dot38)
//
//difftest:len 6

package p

// F38 is a random function.
//
//difftest:modes grad
func F38(x1 []float64, x3 []float64) float64 {
	s := dot38(x1, x3)
	return s
}

func dot38(a []float64, b []float64) float64 {
	s := 0.5
	for i2 := range 6 {
		s += b[i2] * s
	}
	return s
}
