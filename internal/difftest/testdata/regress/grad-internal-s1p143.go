// A case of difftest: program 143 of seed 1 of its generator, minimized.
// It failed: F143 grad internal: gadgen: internal error in emit on c7_grad.go: runtime error: invalid memory address or nil pointer dereference
//
//difftest:len 1

package p

// F143 is a random function.
//
//difftest:modes grad
func F143(x1 float64) float64 {

	if 0.5-0.5 < x1 {
		i2 := -1
		for i2 < 1-1 {
			i2++
			for i3 := i2 + 1; i3 < 1; i3++ {

			}
		}
	} else {

	}
	return 0.5
}
