package noactive

// want +2 "no parameter holding floating-point values"
//
//gad:jvp
func Count(n int, name string) float64 { return float64(n + len(name)) }

// Scale has a receiver holding floats, but a receiver is varied only
// when wrt= names it.
type Scale struct{ K float64 }

// want +2 "receiver is varied only when wrt= names it"
//
//gad:jvp
func (s Scale) Apply(n int) float64 { return s.K * float64(n) }
