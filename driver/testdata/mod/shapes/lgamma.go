package shapes

import "math"

// LogGamma needs the same helper as Gamma.
//
//gad:jvp
func LogGamma(x float64) float64 {
	l, _ := math.Lgamma(x)
	return l
}
