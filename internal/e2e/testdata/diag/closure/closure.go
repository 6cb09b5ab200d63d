package closure

// F's literal pow calls itself through its variable.
//
//gad:jvp
func F(x float64) float64 {
	var pow func(n int) float64
	pow = func(n int) float64 { // want "closure: recursive function literals \\(pow calls itself\\) are not supported"
		if n == 0 {
			return 1
		}
		return x * pow(n-1)
	}
	return pow(3)
}

// G's literal set assigns the captured function variable f.
//
//gad:jvp
func G(x float64) float64 {
	f := func(y float64) float64 { return y }
	set := func() { f = func(y float64) float64 { return 2 * y } } // want "closure: f is assigned in a function literal"
	set()
	return f(x)
}
