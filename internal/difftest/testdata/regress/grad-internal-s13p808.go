// A case of difftest: program 808 of seed 13 of its generator, minimized.
// It failed: F808 grad internal: gadgen: internal error in grad on F808_13: reverse: v11:i4 is needed in reverse but neither recorded nor available
//
//difftest:len 4

package p

// F808 is a random function.
//
//difftest:modes grad
func F808(x1 float64, x2 []float64, x3 float64) float64 {
	s := -2.0
	if 0.5 < x2[1] {
		for i4 := 0; i4 < 6-1; i4++ {
			t5 := make([]float64, 6)
			for i6 := range x2 {
				t5[i6] = x3
			}
			if x1 < x3 {
				continue
			}
			if 0.5 > s {
				return t5[i4+1]
			}
		}
	}

	return s
}
