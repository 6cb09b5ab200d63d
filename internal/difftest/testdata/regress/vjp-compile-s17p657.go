// A case of difftest: program 657 of seed 17 of its generator, minimized.
// It failed: F657 vjp compile: rev/c21_grad.go:98:4: declared and not used: from4
//
//difftest:len 1

package p

// F657 is a random function.
//
//difftest:modes vjp
func F657(dst []float64) {
	s := 2.0
	s += dst[0]
	a2 := h657(s, -0.75*3.0)

	for range dst {
		if 0.5 < h657(0.5, a2) {
		}
	}
}

func h657(a float64, b float64) float64 {
	s := 0.1
	a1 := a

	for i3 := range 4 {
		for i4 := i3 + 1; i4 < 4; i4++ {
			if s >= a1 {
				if a <= 0.5 {
					if 0.1 <= b {
						return s
					}
				}
			}
		}
	}
	return s
}
