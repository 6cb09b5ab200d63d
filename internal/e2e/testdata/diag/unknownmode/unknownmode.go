package unknownmode

// want +2 "unknown mode \"nope\""
//
//gad:nope
func F(x float64) float64 { return x * x }
