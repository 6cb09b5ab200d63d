// Package withtests has directives in a _test.go file.
package withtests

// Cube has a branch, so that it is not inlined and gets a derivative of
// its own.
func Cube(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x * x * x
}
