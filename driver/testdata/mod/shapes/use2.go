package shapes

// TotalSlope calls the generated variadic function.
func TotalSlope() float64 {
	_, d := TotalJVP(2, 1, 3, 4)
	return d
}
