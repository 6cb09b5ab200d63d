// A case of difftest: program 2597 of seed 31 of its generator, minimized.
// It failed: F2597 jvp compile: jvp/c9_grad.go:14:9: cannot use -3 + a2 + a2 (value of type int) as float64 value in return statement
//
//difftest:len 1

package p

// F2597 is a random function.
//
//difftest:modes jvp
func F2597(r1 [1]float64) float64 {
	s := -3.0
	a2 := min(-s, s)

	s += a2
	return s + a2
}
