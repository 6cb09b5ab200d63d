// A case of difftest: program 59 of seed 5401 of its generator, minimized.
// It failed: Model.M59 vjp internal: gadgen: internal error in vjp on Model.M59_10: ir.Check M59_10VJP:
//
//difftest:len 1

package p

import "math"

// M59 is a random function.
//
//difftest:lanes 3
//difftest:modes vjp
func (m *Model) M59(x1 float64) (float64, float64) {
	s := x1

	for i2 := 0; i2 < 6-1; i2++ {
		for i3 := i2 + 1; i3 < 6; i3++ {
			x1 *= s
		}
	}
	if x1 > math.Exp(x1) {
	} else {
		for i5 := 0; i5 < 6; i5++ {
		}
		s += 0.5
	}

	return s, 0.5
}
