package channel

//gad:jvp
func F(x float64) float64 {
	c := make(chan float64, 1) // want "channel"
	c <- 2 * x                 // want "channel"
	return <-c                 // want "channel"
}
