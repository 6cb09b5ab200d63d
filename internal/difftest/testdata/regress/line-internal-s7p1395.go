// A case of difftest: program 1395 of seed 7 of its generator, minimized.
// It failed: F1395 line internal: gadgen: internal error in taylor on F1395_7: taylor: cannot materialize a zero shadow of type *difftest.local/batch/line.Model
//
//difftest:len 3

package p

// F1395 is a random function.
//
//difftest:modes line
func F1395(mp1 *Model) float64 {
	t4 := make([]float64, 4)
	for i5 := 0; i5 < 3; i5++ {
		t4[i5] = mp1.W[i5]
	}

	return mp1.score1395(t4)
}

func (m *Model) score1395(x []float64) float64 {
	return 0.5
}
