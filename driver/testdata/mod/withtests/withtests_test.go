package withtests

//gad:jvp
func square(x float64) float64 { return Cube(x) / x }
