package rulenomath

// want +2 "math.Exp: the package does not import math"
//
//gad:rule x="math.Exp(x)"
func Exp(x float64) float64 { return 1 + x + x*x/2 }
