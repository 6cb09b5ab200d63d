// A case of difftest: program 205 of seed 97 of its generator, minimized.
// It failed: F205 vjp oracle dot: ⟨x̄, v⟩ = -0.023147882836431412, ⟨w, J·v⟩ = -0.023147962945354993 (complex step) at x = [-0.9802778240957286], v = [0.0494070787528984], w = [-0.46851511017532177 0.10358227843835177], x̄ = [-0.46851348876953125]
//
// h205's result is 2^36·a with a = a2 − a2: the reverse of the subtraction
// added 2^36·w and then −2^36·w to x̄, leaving rounding errors of that size
// (1e-6 on 0.47). The reverse of x − x now adds nothing.
//
//difftest:len 2

package p

// F205 is a random function.
//
//difftest:modes vjp
func F205(x1 float64) (float64, float64) {
	s := x1
	a2 := s
	a3 := 0.5
	a3 += h205(a2-a2, a2)

	s += a3
	return s, 0.5
}

func h205(a float64, b float64) float64 {
	s := a
	for range 6 {
		for i2 := 0; i2 < 6; i2++ {
			a3 := s
			s += a3
		}
	}
	return s
}
