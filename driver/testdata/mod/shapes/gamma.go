package shapes

import "math"

// Gamma's derivative needs a helper function (digamma), which gadgen adds
// once to the package.
//
//gad:jvp
func Gamma(x float64) float64 { return math.Gamma(x) }
