package deferstmt

var calls int

func count() { calls++ }

//gad:jvp
func F(x float64) float64 {
	defer count() // want "defer"
	return x * x
}
