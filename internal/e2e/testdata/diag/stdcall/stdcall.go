// Package stdcall calls a function of the standard library that has
// neither a derivative rule nor a body gadgen reads: gadgen reports the
// call alone, with what to do, not also the function's declaration in
// GOROOT and a pointer to it at the directive.
//
// want nothing else
package stdcall

import "sort"

// Sorted sums a weighted sorted copy of x.
//
//gad:grad
func Sorted(x []float64) float64 {
	y := append([]float64(nil), x...)
	sort.Float64s(y) // want "call of sort.Float64s: no derivative rule, and no Go body to differentiate \\(a function of the standard library, whose body gadgen does not read: write the computation in Go"
	s := 0.0
	for i, v := range y {
		s += float64(i+1) * v * v
	}
	return s
}
