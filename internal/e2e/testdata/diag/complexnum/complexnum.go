package complexnum

//gad:jvp
func F(x float64) float64 {
	z := complex(x, 1) // want "complex"
	return real(z * z)
}
