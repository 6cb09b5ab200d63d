// A case of difftest: program 133 of seed 1 of its generator, minimized.
// It failed: F133 vjp internal: gadgen: internal error in vjp on F133_14: reverse: v14 is needed in reverse but neither recorded nor available
//
//difftest:len 1

package p

// F133 is a random function.
//
//difftest:modes vjp
func F133(dst []float64, x3 float64) float64 {
	s := x3
	for i4 := 4 - 1; i4 >= 0; i4-- {
		v5 := Vec2{X: 1.0 + x3*(dst[0]-x3), Y: 0.5}
		s += v5.X
	}

	dst[0] += s
	return s
}
