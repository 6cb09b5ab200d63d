package lower

// A _test.go file needs no import of testing to hold directives.

//gad:jvp
func testOnly(x float64) float64 { return x * x }
