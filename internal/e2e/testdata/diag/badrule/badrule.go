package badrule

import "math"

// want +2 "no partial for y: give ∂Missing/∂y"
//
//gad:rule x="2 * x"
func Missing(x, y float64) float64 { return x*x + y }

// want +2 "unknown name z: a partial may name the parameters and the result r"
//
//gad:rule x="z * x"
func Unknown(x float64) float64 { return x * x }

// want +2 "w=: not a float parameter of NotParam"
//
//gad:rule x="1" w="1"
func NotParam(x float64) float64 { return x }

// want +2 `x="1 \+": .*expected operand`
//
//gad:rule x="1 +"
func BadSyntax(x float64) float64 { return x }

// want +2 "a rule of partials needs a function with one float result"
//
//gad:rule x="1"
func TwoResults(x float64) (float64, float64) { return x, x }

// want +2 "call of math.Foo: not a float64 function of package math"
//
//gad:rule x="math.Foo(x)"
func NoFoo(x float64) float64 { return math.Sqrt(x) }

// want +2 "unterminated quoted value"
//
//gad:rule x="1
func Unterminated(x float64) float64 { return x }

// The rule is used by F's JVP.
//
//gad:jvp
func F(x float64) float64 { return Missing(x, x) }

// want +2 `parameter xs of Slice has type \[\]float64: a rule.s function takes floats and integers only`
//
//gad:rule xs="1"
func Slice(xs []float64) float64 { return xs[0] }

type T struct{}

// want +2 "//gad:rule on a method"
//
//gad:rule x="1"
func (T) M(x float64) float64 { return x }

// want +2 "unknown name y: a partial may name"
//
//gad:rule x="where(x > 0, math.Exp(x), y)"
func InWhere(x float64) float64 { return math.Exp(x) }
