package wrtmissing

// want +2 `wrt: "z" is not a parameter of F`
//
//gad:jvp wrt=x,z
func F(x, y float64) float64 { return x * y }
