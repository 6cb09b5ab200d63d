// A case of difftest: program 225 of seed 91 of its generator, minimized.
// It failed: F225 hvp compile: second/c11_grad.go:82:2: declared and not used: t
//
//difftest:len 1

package p

// F225 is a random function.
//
//difftest:wrt x4
//difftest:modes jvp grad taylor line hvp hessdiag laplacian hessian
func F225(x1 float64, p2 Vec2, x3 float64, x4 []float64) float64 {
	for range x4 {
		if 0.5 > h225(x3, x1) {
			p2.X += -3.0
		}
	}

	return x3
}

func h225(a float64, b float64) float64 {
	i1 := -1
	for i1 < 4-1 {
		i1++
	}
	return 0.5
}
