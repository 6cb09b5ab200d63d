// Package extra is named by a cross-package directive of a package that
// does not import it.
package extra

func Cube(x float64) float64 { return x * x * x }
