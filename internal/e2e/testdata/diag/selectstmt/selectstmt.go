package selectstmt

//gad:jvp
func F(x float64, c chan float64) float64 {
	select { // want "select"
	case v := <-c:
		return v * x
	default:
		return x
	}
}
