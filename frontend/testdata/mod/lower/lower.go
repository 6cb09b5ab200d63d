// Package lower holds functions that gadgen can lower into its IR.
package lower

import (
	"errors"
	"fmt"
	"math"
)

func Poly(x, y float64) float64 { return 3*x*x + 2*x*y - y/4 }

func SumSquares(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x); i++ {
		s += x[i] * x[i]
	}
	return s
}

func Dot(x, y []float64) (s float64) {
	for i, xi := range x {
		s += xi * y[i]
	}
	return
}

type Vec struct{ X, Y float64 }

func (v Vec) Norm() float64 { return math.Sqrt(v.X*v.X + v.Y*v.Y) }

func (v *Vec) Scale(a float64) {
	v.X *= a
	v.Y *= a
}

func UseNorm(a, b float64) float64 { return Vec{a, b}.Norm() }

func Sum(xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func Variadic(a, b float64, rest []float64) float64 {
	return Sum(a, 2*b) + Sum() + Sum(rest...) + math.Max(a, b)
}

func Append(x []float64, a float64) []float64 { return append(x, a, 2*a) }

func AppendSpread(x, y []float64) []float64 { return append(x, y...) }

func Branch(x float64) float64 {
	if x > 0 {
		return x
	}
	return -x
}

func Named(x float64) (y, z float64) {
	y = x * x
	z = y + 1
	return
}

func Struct(p Vec) float64 { return p.X * p.Y }

func Array(a [3]float64) float64 { return a[0] + a[1]*a[2] }

var Factor = 2.0

func Global(x float64) float64 {
	if x > 0 {
		return Factor * x
	}
	return Factor
}

func Make(n int, x float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = x
	}
	return s
}

func MakeCap(n int, x float64) []float64 { return append(make([]float64, 0, n), x) }

func MakeConst(x float64) []float64 {
	s := make([]float64, 3)
	s[0] = x
	return s
}

func CallMulti(x float64) float64 {
	s, c := math.Sincos(x)
	return s * c
}

func Panics(x float64) float64 {
	if x < 0 {
		panic("negative")
	}
	return math.Sqrt(x)
}

func MinMax(x, y float64) float64 { return min(x, y) + max(x, y, 1) }

func Copy(dst, src []float64) int { return copy(dst, src) }

func Conv(n int, x float32) float64 { return float64(n) * float64(x) }

func Print(x float64) float64 {
	println(x)
	return x
}

func Error(x float64) error {
	if x < 0 {
		return errors.New("negative")
	}
	return nil
}

func Sprint(x float64) string { return fmt.Sprint("x=", x) }

func Labeled(x [][]float64) (s float64) {
outer:
	for _, row := range x {
		for j, v := range row {
			if v < 0 {
				continue outer
			}
			if j > 10 {
				break outer
			}
			s += v
		}
	}
	return s
}

func StringIndex(s string, x float64) float64 { return float64(s[0]) * x }

func Stringer(s fmt.Stringer) string { return s.String() }

func Unnamed(float64, []float64) float64 { return 1 }

func Blank(_ float64, z float64) float64 { return z }

type Celsius float64

func (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }

func RangeInt(n int, x float64) float64 {
	for range n {
		x *= 2
	}
	return x
}

func Slices(x []float64, a *[4]float64) float64 {
	y := x[1:3]
	z := a[:2:3]
	return y[0] + z[1]
}

func Pointer(p *float64, x float64) {
	*p = x * *p
}

func Swap(x, y float64, n int) (float64, float64) {
	for i := 0; i < n; i++ {
		x, y = y, x+y
	}
	return x, y
}

// integrate sums f at n points of [0, 1): a higher-order function.
func integrate(f func(float64) float64, n int) float64 {
	s := 0.0
	for i := range n {
		s += f(float64(i) / float64(n))
	}
	return s / float64(n)
}

// twice passes its function parameter on.
func twice(f func(float64) float64, n int) float64 { return integrate(f, n) + integrate(f, 2*n) }

// Closures calls a literal that captures k (passed by value) and one
// that writes the captured acc (passed by address), and passes literals
// and math.Sin to higher-order functions.
func Closures(k, x float64) float64 {
	spring := func(t float64) float64 { return k * t * t }
	acc := 0.0
	add := func(v float64) { acc += v }
	add(spring(x))
	add(twice(spring, 4))
	return acc + integrate(math.Sin, 8) + func(y float64) float64 { return y * k }(x)
}
