package gotostmt

//gad:jvp
func F(x float64) float64 {
	s := x
	if s > 1 {
		goto done // want "goto"
	}
	s *= s
done:
	return s
}
