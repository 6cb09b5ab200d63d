package closuregrad

// Reverse mode does not cover yet literals that assign a variable they
// capture (passed to their specialization by address) beyond a float
// accumulated with +=; forward and Taylor mode do.

import "math"

// Point is a struct a literal updates.
type Point struct{ X, Y float64 }

// RunningMax keeps a running maximum through a literal.
//
//gad:grad
func RunningMax(x []float64) float64 {
	best := math.Inf(-1)
	upd := func(v float64) {
		if v > best {
			best = v
		}
	}
	for _, v := range x {
		upd(v * v) // want "reverse mode"
	}
	return best
}

// Counter counts through a literal.
//
//gad:grad
func Counter(x []float64) float64 {
	n := 0
	s := 0.0
	add := func(v float64) {
		n++
		s += v * float64(n)
	}
	for _, v := range x {
		add(v) // want "reverse mode"
	}
	return s
}

// Struct updates a captured struct.
//
//gad:grad
func Struct(x []float64) float64 {
	p := Point{X: x[0], Y: x[1]}
	move := func(v float64) { p.X += v * p.Y }
	for _, v := range x {
		move(v) // want "reverse mode"
	}
	return p.X
}
