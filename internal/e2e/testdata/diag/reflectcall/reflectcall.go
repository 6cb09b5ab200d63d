package reflectcall

import "reflect"

//gad:jvp
func F(x float64) float64 {
	v := reflect.ValueOf(x) // want "reflect"
	return v.Float() * x    // want "reflect"
}
