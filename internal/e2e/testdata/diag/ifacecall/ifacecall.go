package ifacecall

// Shape is an interface whose method takes and returns floats.
type Shape interface {
	Area(scale float64) float64
}

// Square is a Shape.
type Square struct{ Side float64 }

// Area implements Shape.
func (s Square) Area(scale float64) float64 { return scale * s.Side * s.Side }

//gad:jvp
func F(s Shape, x float64) float64 {
	return s.Area(x) // want "dynamic interface call"
}
