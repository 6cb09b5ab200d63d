// A case of difftest: program 1489 of seed 23 of its generator, minimized.
// It failed: F1489 taylor taylor2: y[0]: got 6.5468664253255454e-41, want 0 ± 3.33e-49 by differences of the complex step at x = [-0.07892161499763373 0.7979719977553046] along v = [0.10623292569825327 0.667473282836905]
//
//difftest:len 4

package p

import "math"

// F1489 is a random function.
//
//difftest:modes taylor
func F1489(x1 float64, x2 float64) float64 {
	s := math.Abs(math.Log(1.0 + x1*x1))
	a3 := (x1 + s) * s

	a8 := math.Cos(a3 * a3)
	for i9 := 0; i9 < 4-1; i9++ {
		a10 := -s * a8
		s += a10
	}
	return s + 0.1
}
