// A case of difftest written by hand: jets along several directions per
// call (lanes=L) through writes into a destination slice and a pointer,
// a method, a helper with a loop and a branch, two results.
//
//difftest:len 3

package p

import "math"

// Relax moves p toward the points of xs and writes their distances
// into dst.
//
//difftest:lanes 3
//difftest:modes jvp vjp taylor tlanes
func Relax(dst []float64, xs []float64, p *Vec2) float64 {
	e := 0.0
	for i, x := range xs {
		d := math.Hypot(p.X-x, p.Y-float64(i))
		dst[i] = d
		p.X += 0.1 * (x - p.X) * math.Exp(-d*d)
		e += smooth(d)
	}
	return e
}

// Polar returns the radius and the angle of a point of a circle.
//
//difftest:modes jvp vjp taylor line tlanes llanes
func Polar(x, y float64) (float64, float64) {
	return math.Sqrt(1 + x*x + y*y), math.Atan(y / (2 + x*x))
}

// Score is the model's tanh on xs.
//
//difftest:lanes 3
//difftest:modes jvp grad taylor line tlanes llanes
func (m Model) Score(xs []float64) float64 {
	s := m.B
	for i := range xs {
		s += m.W[i] * xs[i]
	}
	return math.Tanh(s)
}

func smooth(d float64) float64 {
	if d > 1 {
		return d - 0.5
	}
	return 0.5 * d * d
}
