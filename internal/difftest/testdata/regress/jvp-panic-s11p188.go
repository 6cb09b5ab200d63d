// A case of difftest: program 188 of seed 11 of its generator, minimized.
// It failed (fixed: forward mode returned no tangent for mk188's slice):
// F188 jvp panic: runtime error: index out of range [2] with length 0 at /tmp/difftest-1030057845/jvp/c2_grad.go:27 +0x59
//
//difftest:len 4

package p

import "math"

// F188 is a random function.
//
//difftest:lanes 2
//difftest:modes jvp grad taylor line
func F188(x1 float64, n int) float64 {
	s := 0.5
	t3 := make([]float64, 4)
	for i4 := 0; i4 < n; i4++ {
		t3[i4] = x1
	}
	g6 := make([]float64, len(t3))

	e7, d8 := potj188JVP(g6, g6)

	t14 := mk188(t3, d8)
	s += t14[2]

	s += e7

	return s
}

func mk188(a []float64, c float64) []float64 {
	r := make([]float64, len(a))

	return r
}

//gad:jvp
func potj188(q []float64) float64 {
	e := 0.0
	for i := range q {
		e += 3 * math.Exp(math.Sin(q[i]))
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += 0.1 * d * d
	}
	return e
}

// potj188JVP is the derivative gadgen writes for potj188, written out for the twin.
//
//difftest:reference potj188
func potj188JVP(q, dq []float64) (float64, float64) {
	e, de := 0.0, 0.0
	for i := range q {
		e += 3 * math.Exp(math.Sin(q[i]))
		de += 3 * (math.Cos(q[i]) * math.Exp(math.Sin(q[i]))) * dq[i]
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += 0.1 * d * d
		de += 2 * 0.1 * d * (dq[i+1] - dq[i])
	}
	return e, de
}
