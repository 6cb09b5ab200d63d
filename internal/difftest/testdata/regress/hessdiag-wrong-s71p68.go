// A case of difftest: program 68 of seed 71 of its generator, minimized.
// It failed: F68 hessdiag value: y[0]: got -1.5, want 2.1369036912283317 (scale 2.14, rel 1e-13) at x = [-0.7729368804406753 0.6397894138104434] along v = [-0.8002117386204823 -0.6647023025097607]
//
// The second-order helpers call F (or its jets, or the JVP of its
// gradient) several times: a function that writes through a fixed
// parameter (dst) saw its last call's writes, in its value, its
// derivatives (F68), and the memory it leaves (G, written by hand). Now
// gadgen refuses those helpers for such functions (the HVP by forward
// over reverse, one call, is fine).
//
//difftest:len 2

package p

// F68 is a random function.
//
//difftest:wrt x1
//difftest:modes hvp taylor
func F68(dst []float64, x1 []float64) float64 {
	s := -3.0
	s *= dst[1]
	for i10 := 0; i10 < len(dst); i10++ {
		dst[i10] = 0.5
	}
	return s
}

// G accumulates into dst, which it does not read.
//
//difftest:wrt x
//difftest:modes hvp taylor
func G(dst []float64, x []float64) float64 {
	dst[0] += x[0] * x[1]
	return x[0] * x[0] * x[1]
}
