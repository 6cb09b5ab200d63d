package funcvalue

import "math"

func apply(f func(float64) float64, x float64) float64 {
	return f(x)
}

//gad:jvp
func F(x float64) float64 {
	return apply(math.Sin, x) // want "function value"
}
