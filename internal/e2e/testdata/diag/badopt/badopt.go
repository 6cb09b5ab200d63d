package badopt

// want +2 "opt=fast: want opt=0 \\(no optimization\\) or opt=1"
//
//gad:jvp opt=fast
func F(x float64) float64 { return x * x }
