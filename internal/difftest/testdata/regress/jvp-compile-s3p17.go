// A case of difftest: program 17 of seed 3 of its generator, minimized.
// It failed: F17 jvp compile: invalid append: argument must be a slice; have untyped nil
// (and likewise in Taylor mode)
//
//difftest:len 2

package p

// F17 is a random function.
//
//difftest:modes jvp taylor
func F17(x4 []float64) (float64, float64) {
	t8 := append([]float64(nil), x4...)
	return t8[1], 0.5
}
