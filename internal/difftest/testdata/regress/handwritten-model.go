// A case of difftest written by hand: a method with a pointer receiver
// (not varied), arrays and structs by value, a helper of slices.
//
//difftest:len 4

package p

import "math"

// Loss is the squared error of the model on x against y.
func (m *Model) Loss(x []float64, y float64) float64 {
	d := dot(m.W, x) + m.B - y
	return d * d
}

// Spring is the energy of a spring from p to each point of r.
func Spring(p Vec2, r [4]float64, k float64) float64 {
	e := 0.0
	for i, a := range r {
		d := math.Hypot(p.X-a, p.Y-float64(i))
		e += 0.5 * k * (d - 1) * (d - 1)
	}
	return e
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
