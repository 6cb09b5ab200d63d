// A case of difftest: program 249 of seed 61 of its generator, minimized.
// It failed: F249 jvp value: y[0]: got -1.0397668185205422, want 0.50685683633555989 (scale 1.04, rel 1e-13) at x = [-0.7698834092602711 0.776740245595831] along v = [-0.941890126999037 0.63110588020699]
//
//difftest:len 2

package p

// F249 is a random function.
//
//difftest:modes jvp
func F249(x1 []float64) float64 {
	s := 0.5

	for i8, v9 := range x1 {
		var t10 []float64
		for i11 := 0; i11 < len(x1); i11++ {
			t10 = append(t10, v9)
		}
		f12 := func(u13 float64) float64 {
			return t10[i8]
		}
		s += f12(0.5)
	}

	return s
}
