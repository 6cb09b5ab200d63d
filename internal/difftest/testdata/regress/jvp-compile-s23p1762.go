// A case of difftest: program 1762 of seed 23 of its generator, minimized.
// It failed: F1762 jvp compile: jvp/c7_grad.go:13:2: declared and not used: s
//
//difftest:len 1

package p

// F1762 is a random function.
//
//difftest:modes jvp
func F1762(x1 float64, x3 []float64) (float64, float64) {
	s := dot1762(x3, x3)
	if x1 <= s {
		s += s
	}
	for i4 := range 1 {
		s = x3[i4]
	}
	return s, 0.5
}

func dot1762(a []float64, b []float64) float64 {
	return 0.5
}
