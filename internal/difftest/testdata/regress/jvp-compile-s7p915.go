// A case of difftest: program 915 of seed 7 of its generator, minimized.
// It failed: F915 jvp compile: jvp/c6_grad.go:20:2: append([]float64(nil), t3...) (value of type []float64) is not used
//
//difftest:len 1

package p

// F915 is a random function.
//
//difftest:modes jvp
func F915(x1 float64) (float64, float64) {
	t2 := make([]float64, 5)
	for i3 := 0; i3 < 1; i3++ {
		t2[i3] = x1
	}
	t4 := append([]float64(nil), t2...)
	for i5 := len(t4) - 1; i5 >= 0; i5-- {
	}
	return 0.5, 0.5
}
