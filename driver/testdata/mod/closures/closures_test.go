package closures

import "math"

//gad:jvp
func energyTwice(k float64) float64 { return integrate(math.Sin, 4) * k }

//gad:jvp
func wave(k float64) float64 { return Wave(k) }
