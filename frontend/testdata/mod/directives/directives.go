// Package directives holds good and bad //gad: directives. A comment
// "want+1" gives a substring of the diagnostic expected on the next line.
package directives

import "example.com/fe/geom"

var _ = geom.Pi

// Good is annotated.
//
//gad:jvp
func Good(x, y float64) float64 { return x * y }

//gad:jvp wrt=x
func Wrt(x, y float64, n int) float64 { return x * y * float64(n) }

type T struct{ A float64 }

//gad:jvp wrt=t,x
func (t T) M(x float64) float64 { return t.A * x }

//gad:jvp
func (t *T) P(x float64) float64 { return t.A * x }

//gad:jvp distJVP example.com/fe/geom.Dist
//gad:jvp normJVP example.com/fe/geom.Vec.Norm wrt=v
//gad:jvp scaleJVP example.com/fe/geom.Vec.Scale wrt=v,a
//gad:jvp cubeJVP example.com/fe/extra.Cube

// want+2 col=1 "directive: unknown mode \"grad\" in //gad:grad (known modes: jvp)"
//
//gad:grad
func BadMode(x float64) float64 { return x }

// want+2 col=11 "directive: unknown option \"order\" for //gad:jvp (known: wrt)"
//
//gad:jvp order=2
func BadOption(x float64) float64 { return x }

// want+2 "wrt: \"q\" is not a parameter of WrtUnknown"
//
//gad:jvp wrt=q
func WrtUnknown(x float64) float64 { return x }

// want+2 "wrt: parameter n of type int holds no floating-point values"
//
//gad:jvp wrt=n
func WrtInt(x float64, n int) float64 { return x }

// want+2 "T.NoActive has no parameter holding floating-point values to vary (a receiver is varied only when wrt= names it)"
//
//gad:jvp
func (t T) NoActive() float64 { return t.A }

// want+2 "malformed directive"
//
//gad:jvp wrt
func Malformed(x float64) float64 { return x }

// want+2 "malformed directive \"//gad:jvp,wrt=x\": bad mode name"
//
//gad:jvp,wrt=x
func Malformed2(x float64) float64 { return x }

// want+1 "malformed directive \"//gad: jvp\""
//gad: jvp

// want+2 "option wrt given twice"
//
//gad:jvp wrt=x wrt=x
func Twice(x float64) float64 { return x }

// want+2 "directive on a non-function"
//
//gad:jvp
var V = 1.0

// want+2 "directive on a non-function"
//
//gad:jvp
type U float64

// want+2 "Gen is generic: generic functions are not supported yet"
//
//gad:jvp
func Gen[T ~float64](x T) T { return x }

func Body(x float64) float64 {
	// want+1 "inside the body of Body"
	//gad:jvp
	return x
}

// want+1 "unknown package in target \"example.com/fe/nosuch.F\""
//gad:jvp a example.com/fe/nosuch.F

// want+1 col=13 "unknown function example.com/fe/geom.Nope"
//gad:jvp b example.com/fe/geom.Nope

// want+1 "unknown method example.com/fe/geom.Vec.Nope"
//gad:jvp c example.com/fe/geom.Vec.Nope

// want+1 "method Norm of example.com/fe/geom.Named is promoted from an embedded field"
//gad:jvp d example.com/fe/geom.Named.Norm

// want+1 "example.com/fe/geom.Pi is not a function"
//gad:jvp e example.com/fe/geom.Pi

// want+1 col=11 "\"1x\" is not a valid name"
//gad:jvp 1x example.com/fe/geom.Dist

// want+1 "Generic is generic"
//gad:jvp g example.com/fe/geom.Generic

// want+1 "malformed directive"
//gad:jvp a b c
