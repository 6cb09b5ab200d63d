package shapes

// Slope uses a generated function.
func Slope(x []float64, dx []float64) float64 {
	_, d := RosenbrockJVP(x, dx)
	return d
}
