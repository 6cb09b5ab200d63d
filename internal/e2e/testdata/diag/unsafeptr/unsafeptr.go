package unsafeptr

import "unsafe"

//gad:jvp
func F(x float64) float64 {
	p := unsafe.Pointer(&x)   // want "unsafe"
	return *(*float64)(p) * 2 // want "unsafe"
}
