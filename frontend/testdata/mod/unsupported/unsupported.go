// Package unsupported holds one function per construct that gadgen cannot
// differentiate. Each "want" comment gives a substring of the diagnostic
// expected on its line.
package unsupported

import (
	"math"
	"reflect"
	"unsafe"
)

func Goroutine(x float64) float64 {
	go println() // want col=2 "cannot differentiate Goroutine: goroutine: go statements"
	return x
}

func Defer(x float64) float64 {
	defer println() // want "defer: defer statements"
	return x
}

func Chan(x float64) float64 {
	c := make(chan float64, 1) // want col=11 "channel: channels are not supported"
	c <- x                     // want col=4 "channel: channel send"
	return <-c                 // want "channel: channel receive"
}

func Select(c chan float64) float64 {
	select { // want "select: select statements"
	case x := <-c:
		return x
	default:
		return 0
	}
}

func Map(x float64) float64 {
	m := map[string]float64{"a": x} // want col=25 "map: maps holding active values"
	return m["a"]                   // want "map: maps holding active values"
}

func MapInt(n int) int {
	m := map[int]int{} // want "map: maps are not supported"
	m[1] = n           // want "map: maps are not supported"
	delete(m, 2)       // want "map: maps are not supported"
	return n
}

func RangeString(s string, x float64) float64 {
	for range s { // want col=2 "range over string"
		x *= 2
	}
	return x
}

func RangeMap(m map[string]float64) (s float64) {
	for _, v := range m { // want "range over map"
		s += v
	}
	return
}

func RangeFunc(seq func(func(float64) bool)) (s float64) {
	for x := range seq { // want "range over function"
		s += x
	}
	return
}

func Assert(v any) float64 {
	return v.(float64) // want "type assertion"
}

func TypeSwitch(v any) float64 {
	switch v := v.(type) {
	case float64: // want "type assertion"
		return v
	}
	return 0
}

func FuncValue(x float64) float64 {
	fs := []func(float64) float64{math.Sin} // want "function value: storing a function value"
	return fs[0](x)                         // want "function value: function values stored in slices"
}

func CallParam(f func(float64) float64, x float64) float64 {
	return f(x) // want "function value: call of the function parameter f"
}

type Vec struct{ X, Y float64 }

func (v Vec) Norm() float64 { return math.Hypot(v.X, v.Y) }

func MethodValue(v Vec) float64 {
	f := v.Norm // want col=9 "function value: method values"
	return f()
}

func FuncPhi(x float64) float64 {
	f := math.Sin
	if x > 0 {
		f = math.Cos
	}
	return f(x) // want "function value: f holds different functions"
}

func RecursiveLiteral(x float64) float64 {
	var pow func(n int) float64
	pow = func(n int) float64 { // want "closure: recursive function literals"
		if n == 0 {
			return 1
		}
		return x * pow(n-1)
	}
	return pow(3)
}

func Unsafe(x float64) uint64 {
	return *(*uint64)(unsafe.Pointer(&x)) // want "unsafe: conversions involving unsafe.Pointer"
}

func UnsafeAdd(x []float64) float64 {
	p := unsafe.Pointer(&x[0]) // want "unsafe: conversions"
	q := unsafe.Add(p, 8)      // want "unsafe: unsafe.Add"
	return *(*float64)(q)      // want "unsafe: conversions"
}

func Reflect(x float64) float64 {
	return reflect.ValueOf(x).Float() // want "reflect: calls into package reflect"
}

func Goto(x float64) float64 {
	i := 0
loop:
	if i < 3 {
		x *= 2
		i++
		goto loop // want col=3 "goto: goto statements"
	}
	return x
}

func Complex(x float64) float64 {
	c := complex(x, 1) // want "complex number: complex numbers"
	return real(c * c)
}

type Shape interface{ Area(scale float64) float64 }

func Dynamic(s Shape, x float64) float64 {
	return s.Area(x) // want col=15 "dynamic interface call: call of method Area"
}

func Generic[T any](x T) T { return x } // want "generic function: generic functions are not supported yet"

func CallsGeneric(x float64) float64 {
	return Generic(x) // want "generic function: call of generic function Generic"
}

func Recover(x float64) float64 {
	recover() // want "recover: recover is not supported"
	return x
}

func Several(x float64) float64 {
	go println()    // want "goroutine"
	defer println() // want "defer"
	var i any = x
	return i.(float64) // want "type assertion"
}
