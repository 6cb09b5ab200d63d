// Package withtests has directives in a _test.go file.
package withtests

func Cube(x float64) float64 { return x * x * x }
