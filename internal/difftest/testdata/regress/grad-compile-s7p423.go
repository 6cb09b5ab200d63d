// A case of difftest: program 423 of seed 7 of its generator, minimized.
// It failed: F423 grad compile: rev/c12_grad.go:23:6: declared and not used: from3
//
//difftest:len 1

package p

// F423 is a random function.
//
//difftest:modes grad
func F423(n int, x1 float64, x2 []float64) float64 {
	s := x1

	if 0.5 >= x2[n-1] {
		t4 := make([]float64, 6)
		for i5 := range 6 {
			t4[i5] = -3.0
		}
		for range 6 {
			a7 := dot423(t4, t4)
			s += a7
		}
	}

	return s
}

func dot423(a []float64, b []float64) float64 {
	s := a[4]

	return s
}
