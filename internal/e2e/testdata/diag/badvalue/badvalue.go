package badvalue

// want +2 "option value=no: the value must be true or false"
//
//gad:grad value=no
func F(x []float64) float64 { return x[0] * x[0] }
