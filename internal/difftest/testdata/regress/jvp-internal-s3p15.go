// A case of difftest: program 15 of seed 3 of its generator, minimized.
// It failed: F15 jvp internal: gadgen: internal error in emit: runtime error: invalid memory address or nil pointer dereference
// (emit.rotate: a loop that steps its counter first, whose body starts with a loop)
//
//difftest:len 1

package p

// F15 is a random function.
//
//difftest:modes jvp taylor line
func F15(x1 float64) float64 {
	return h15(0.5, x1)
}

func h15(a float64, b float64) float64 {
	for range 1 {
		for i2 := 0; i2 < 1; i2++ {
			if 0.5 <= a {
				break
			}
		}
	}
	return 0.5
}
