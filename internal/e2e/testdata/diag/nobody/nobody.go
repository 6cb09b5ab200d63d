package nobody

// dot is implemented in assembly (here: nowhere; gadgen only type-checks).
func dot(x, y []float64) float64 // want "no Go body"

//gad:jvp
func F(x []float64) float64 {
	return dot(x, x)
}
