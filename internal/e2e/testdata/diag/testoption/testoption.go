package testoption

import "math/rand/v2"

// want +2 `test=true needs a function of float64 and \[\]float64 parameters, all varied, returning one float64; for StepsGrad, name a function that returns example arguments, test=NAME`
//
//gad:grad wrt=x test=true
func Steps(x []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += x[i%len(x)]
	}
	return s
}

// want +2 "option test=0: the value must be true, the length of the slice parameters at the points checked \\(1 to 1000\\), or the name of a function"
//
//gad:grad test=0
func Square(x []float64) float64 { return x[0] * x[0] }

// want +2 `test=true on //gad:vjp: name a function that returns example arguments, test=NAME`
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

// want +2 `test=missingInputs: no function missingInputs in package testoption or its tests: write func missingInputs\(r \*rand.Rand\) \(x \[\]float64, n int\), with math/rand/v2, or with no parameters, returning example arguments of Mean`
//
//gad:grad wrt=x test=missingInputs
func Mean(x []float64, n int) float64 { return x[0] / float64(n) }

// want +2 `test=badInputs: want func badInputs\(r \*rand.Rand\) \(x \[\]float64, n int\), .*; badInputs has func\(r \*rand.Rand\) \[\]float64`
//
//gad:jvp wrt=x test=badInputs
func Max(x []float64, n int) float64 { return x[n] }

func badInputs(r *rand.Rand) []float64 { return []float64{r.Float64()} }

// want +2 `test= needs a function with one float or tensor result; write the test of PairJVP with package gadtest`
//
//gad:jvp test=pairInputs
func Pair(x float64) (float64, float64) { return x, x }

func pairInputs() float64 { return 1 }
