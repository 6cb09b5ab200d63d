package mapfloat

//gad:jvp
func F(x float64) float64 {
	m := map[string]float64{"x": x} // want "map"
	return m["x"] * 2               // want "map"
}
