// A case of difftest: program 17 of seed 1 of its generator, minimized.
// It failed (and likewise in the modes below): F17 jvp vet: jvp/c2_grad.go:16:2: self-assignment of dp1.X
//
//difftest:len 1

package p

// F17 is a random function.
//
//difftest:modes jvp taylor line
func F17(p1 Vec2) float64 {

	s := 0.5
	s *= p1.Y

	p1.X += -3.0

	return s
}
