// A case of difftest: program 615 of seed 7 of its generator, minimized.
// It failed: F615 grad compile: rev/c17_grad.go:81:4: declared and not used: from3
//
//difftest:len 5

package p

// F615 is a random function.
//
//difftest:modes grad
func F615(x2 []float64) float64 {
	t3 := make([]float64, 6)

	v6 := Vec2{X: h615(0.5, dot615(x2, t3)), Y: 0.5}

	a7 := h615(v6.X, 0.5)

	if 0.5 > a7 {
	}
	return 0.5
}

func dot615(a []float64, b []float64) float64 {
	return 0.5
}

func h615(a float64, b float64) float64 {
	s := 0.5

	if -2.0 > b {
		for i1 := 6 - 1; i1 >= 0; i1-- {
			if a > b {
				if a < a {
					s = 0.5
				}
			}
		}
	}
	return s
}
