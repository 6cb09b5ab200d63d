// A case of difftest: program 412 of seed 7 of its generator, minimized.
// It failed: F412 jvp compile: jvp/c6_grad.go:14:3: append([]float64(nil), x1...) (value of type []float64) is not used
//
//difftest:len 1

package p

// F412 is a random function.
//
//difftest:modes jvp
func F412(x1 []float64) float64 {
	if x1[0] <= 0.5 {
	} else {
		t2 := append([]float64(nil), x1...)
		for i3 := range x1 {
			if 0.5 > t2[i3] {
			}
		}
	}
	return 0.5
}
