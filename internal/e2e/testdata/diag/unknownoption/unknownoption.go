package unknownoption

// want +2 "unknown option \"fast\""
//
//gad:jvp fast=true
func F(x float64) float64 { return x * x }
