// A case of difftest: program 18 of seed 3 of its generator, minimized.
// It failed: F18 vjp panic: runtime error: slice bounds out of range [:-1] (in the generated F18VJP)
//
//difftest:len 1

package p

// F18 is a random function.
//
//difftest:modes vjp
func F18(x1 float64) (float64, float64) {
	s := x1
	for range 2 {
		s += s * s
	}
	return s, 3.0
}
