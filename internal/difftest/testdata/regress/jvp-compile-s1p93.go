// A case of difftest: program 93 of seed 1 of its generator, minimized.
// It failed: F93 jvp compile: jvp/c12_grad.go:18:3: declared and not used: x10
//
//difftest:len 4

package p

// F93 is a random function.
//
//difftest:modes jvp
func F93(x1 []float64) float64 {
	s := x1[3]

	a3 := 0.5
	if s < 0.5 {
		s += 0.5

	} else {
		if x1[0]*x1[0] > 2.0 {
			a3 *= 2.0
		}
	}
	return s
}
