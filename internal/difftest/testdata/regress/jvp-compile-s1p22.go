// A case of difftest: program 22 of seed 1 of its generator, minimized.
// It failed (and likewise in the modes below): F22 jvp compile: jvp/c5_grad.go:13:2: declared and not used: t
//
//difftest:len 1

package p

// F22 is a random function.
//
//difftest:modes jvp taylor
func F22(r1 [2]float64) float64 {

	for _, v6 := range r1 {
		if r1[1]*2.0 < 0.5 {
			continue
		}
		v6 *= 0.5
	}

	return -0.5
}
