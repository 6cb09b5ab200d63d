package goroutine

func square(out []float64, x float64) { out[0] = x * x }

//gad:jvp
func F(x float64) float64 {
	out := make([]float64, 1)
	go square(out, x) // want "goroutine"
	return out[0]
}
