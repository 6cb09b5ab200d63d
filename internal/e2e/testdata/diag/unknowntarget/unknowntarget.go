package unknowntarget

import "math"

// F uses package math, so that math is loaded with this package.
func F(x float64) float64 { return math.Sin(x) }

// want +1 "unknown function math.NoSuchFunction"
//gad:jvp NoSuchJVP math.NoSuchFunction

// want +1 "unknown method math.NoSuchType|unknown type math.NoSuchType"
//gad:jvp NoTypeJVP math.NoSuchType.Method

// want +1 "unknown package"
//gad:jvp ElsewhereJVP example.com/nowhere.F
