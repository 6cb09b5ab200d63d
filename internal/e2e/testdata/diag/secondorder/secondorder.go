package secondorder

// want +2 `//gad:hessian needs exactly one varied parameter, of type \[\]float64; x and y are varied`
//
//gad:hessian
func Two(x, y []float64) float64 { return x[0] * y[0] }

// want +2 `//gad:hvp needs a varied parameter of type \[\]float64; x has type float64`
//
//gad:hvp
func Scalar(x float64) float64 { return x * x }

// want +2 "//gad:laplacian needs a function with one float64 result"
//
//gad:laplacian
func Results(x []float64) (float64, float64) { return x[0], x[1] }

// want +2 "unknown option \"order\" for //gad:hessdiag"
//
//gad:hessdiag order=2
func Option(x []float64) float64 { return x[0] * x[0] }

// want +2 "//gad:hessian needs a function with one float64 result"
//
//gad:hessian
func Float32(x []float64) float32 { return float32(x[0]) }

// want +2 "//gad:hessian evaluates Writes several times, and Writes writes through x"
//
//gad:hessian
func Writes(x []float64) float64 {
	x[0] *= x[1]
	return x[0] + x[1]
}

// want +2 `//gad:hvp lanes=2 needs a varied parameter of type \*tensorops.Tensor`
//
//gad:hvp lanes=2
func Lanes(x []float64) float64 { return x[0] * x[1] }

// want +2 "unknown option \"lanes\" for //gad:hessian"
//
//gad:hessian lanes=2
func HessianLanes(x []float64) float64 { return x[0] * x[1] }
