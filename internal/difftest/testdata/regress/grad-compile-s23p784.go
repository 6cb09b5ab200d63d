// A case of difftest: program 784 of seed 23 of its generator, minimized.
// It failed: F784 grad compile: rev/c12_grad.go:15:24: cannot use a1 (variable of type int) as float64 value in argument to math.Hypot
//
//difftest:len 3

package p

import "math"

// F784 is a random function.
//
//difftest:modes grad
func F784(x1 float64) float64 {
	s := h784(-2.0, -2.0)

	return s
}

func h784(a float64, b float64) float64 {
	s := 0.5
	a1 := -b - b
	a2 := math.Hypot(a1, a1)

	s += a2

	return s
}
