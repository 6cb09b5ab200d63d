// Package followon refuses a directive before its derivative has a
// signature, while other code calls the derivative: gadgen reports the
// refusal, not the type errors of the calls ("undefined: LossHessDiag").
//
// want nothing else
package followon

// want +2 "//gad:hessdiag needs exactly one varied parameter"
//
//gad:hessdiag
func Loss(x, y []float64) float64 { return x[0] * y[0] }

// Use calls the derivative that gadgen refused.
func Use(x, y []float64) float64 {
	f, _ := LossHessDiag(x, y)
	return f + Other()
}

// Other is undefined in earnest: that error is reported.
func Other() float64 { return undefinedHere } // want "undefined: undefinedHere"
