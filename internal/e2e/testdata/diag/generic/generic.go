package generic

// want +2 "generic"
//
//gad:jvp
func Sum[T float32 | float64](x []T) T {
	var s T
	for _, v := range x {
		s += v
	}
	return s
}
