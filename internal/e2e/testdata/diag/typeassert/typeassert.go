package typeassert

//gad:jvp
func F(v any, x float64) float64 {
	return v.(float64) * x // want "type assertion"
}
