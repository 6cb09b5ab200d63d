// Package geom is a dependency whose functions the generated code of
// package shapes differentiates.
package geom

import "math"

type Vec struct{ X, Y float64 }

func Dist(a, b Vec) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return math.Sqrt(dx*dx + dy*dy)
}

func Hidden(x float64) float64 { return helper(x) * factor }

var factor = 2.0

func helper(x float64) float64 { return x * x }

// Scaled calls an unexported function with no varied argument: the
// generated code of another package calls a copy of it.
func Scaled(x float64, n int) float64 { return x * weight(n) }

// weight has a branch, so that it is not inlined: gadgen copies it into
// the package that calls it.
func weight(n int) float64 {
	if n < 0 {
		return 0
	}
	return float64(n) / 2
}
