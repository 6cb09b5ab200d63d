// Package conv is an end-to-end case of gadgen's forward mode: float32,
// conversions between float32 and float64, from int to float and back,
// and named float types.
package conv

//go:generate gadgen

import "math"

// Cubic32 is float32 arithmetic throughout.
//
//gad:jvp
//gad:grad
func Cubic32(x float32) float32 {
	return x*x*x - 2*x + 1
}

// Widen takes a float32 and a float64 and computes in float64.
//
//gad:jvp
//gad:grad
func Widen(x float32, y float64) float64 {
	return float64(x)*y + float64(x*x)
}

// Narrow computes in float64 and returns a float32.
//
//gad:jvp
//gad:grad
func Narrow(x float64) float32 {
	return float32(x*x) + 1
}

// Exp32 calls a float64 function of package math on a float32.
//
//gad:jvp
//gad:grad
func Exp32(x float32) float32 {
	return float32(math.Exp(float64(x))) * x
}

// Sum32 sums squares of a float32 slice, accumulating in float64.
//
//gad:jvp
//gad:grad
func Sum32(x []float32) float64 {
	s := 0.0
	for _, v := range x {
		s += float64(v * v)
	}
	return s
}

// IntScale converts an int (not varied) to float64.
//
//gad:jvp
//gad:grad
func IntScale(x float64, n int) float64 {
	return float64(n)*x*x + float64(n*n)
}

// Truncate converts a varied float to int and back: the int part has
// derivative zero.
//
//gad:jvp
//gad:grad
func Truncate(x float64) float64 {
	n := int(x)
	return float64(n) + x*x
}

// Index uses a varied float, converted to int, as a slice index.
//
//gad:jvp
//gad:grad
func Index(x float64, table []float64) float64 {
	i := int(x)
	return table[i] * x
}

// Celsius is a named float type.
type Celsius float64

// Fahrenheit converts between named and unnamed float types.
//
//gad:jvp
//gad:grad
func Fahrenheit(c Celsius) float64 {
	return float64(c)*9/5 + 32 + float64(c*c)/100
}
