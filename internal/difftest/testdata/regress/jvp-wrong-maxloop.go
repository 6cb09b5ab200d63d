// A case of difftest: program 643 of seed 11 of its generator, minimized
// (jvp-wrong-s11p643.go), and rewritten by hand without its range over an
// int. It failed: F jvp jvp: a wrong directional derivative. In the
// loop, FJVP overwrites ds with the tangent of y - s before the branch
// of max reads ds for the tangent of tanh(s):
//
//	ds = dy - ds
//	if t2 > t {
//		ds = (1 - t2*t2) * ds
//	}
//
//difftest:len 1

package p

import "math"

// F iterates s ← max(y − s, tanh(s)).
//
//difftest:modes jvp
func F(x, y float64) float64 {
	s := x
	for i := 0; i < 4; i++ {
		s = max(y-s, math.Tanh(s))
	}
	return s
}
