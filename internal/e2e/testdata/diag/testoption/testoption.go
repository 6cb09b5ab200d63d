package testoption

// want +2 `test= needs a function of float64 and \[\]float64 parameters, all varied`
//
//gad:grad wrt=x test=true
func Steps(x []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += x[i%len(x)]
	}
	return s
}

// want +2 "option test=0: the value must be true or the length"
//
//gad:grad test=0
func Square(x []float64) float64 { return x[0] * x[0] }

// want +2 `unknown option "test" for //gad:vjp`
//
//gad:vjp test=true
func Cube(x []float64) float64 { return x[0] * x[0] * x[0] }

// want +2 `test= does not support functions that write their slice parameters yet \(Scale may write its slice parameter x\)`
//
//gad:grad test=true
func Scale(x []float64) float64 {
	for i := range x {
		x[i] *= 2
	}
	return x[0] * x[1]
}
