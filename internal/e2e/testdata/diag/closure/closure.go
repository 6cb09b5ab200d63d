package closure

//gad:jvp
func F(x float64) float64 {
	times := func(y float64) float64 { return x * y } // want "closure"
	return times(x)
}
