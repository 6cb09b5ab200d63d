// A case of difftest: program 301 of seed 11 of its generator, minimized.
// It failed: F301 jvp internal: gadgen: internal error in optimize on F301_10: after pass loopform: ir.Check F301_10:
//
//difftest:len 4

package p

// F301 is a random function.
//
//difftest:modes jvp vjp taylor
func F301(x1 []float64) (float64, float64) {
	s := -0.1
	i2 := -1
	for i2 < len(x1)-1 {
		i2++
		if x1[i2] < s*x1[1] {
		}
		for range 4 {
			s *= 0.5
			if 0.5 <= s {
				return s, -0.5
			}
		}
	}

	return s, 0.5
}

func h301(a float64, b float64) float64 {
	return 0.5
}
