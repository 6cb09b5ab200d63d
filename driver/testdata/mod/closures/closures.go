// Package closures passes literals and a package function to a
// higher-order function, from a file and from a _test.go file.
package closures

import "math"

func integrate(f func(float64) float64, n int) float64 {
	s := 0.0
	for i := range n {
		s += f(float64(i) / float64(n))
	}
	return s / float64(n)
}

//gad:jvp
func Energy(k float64) float64 {
	f := func(x float64) float64 { return k * x * x }
	return integrate(f, 8) + integrate(math.Sin, 4)
}

//gad:jvp wrt=x
func Fixed(k, x float64) float64 {
	spring := func(t float64) float64 { return k * t * t }
	return x * integrate(spring, 8)
}

// Wave has no directive: only the test file's directive lowers it, in
// the test variant of the package, where its literal is the first
// specialization of integrate named integrateF.
func Wave(k float64) float64 {
	f := func(x float64) float64 { return math.Sin(k * x) }
	return integrate(f, 8)
}
