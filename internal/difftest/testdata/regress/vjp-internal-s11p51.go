// A case of difftest: program 51 of seed 11 of its generator, minimized.
// It failed (fixed: the driver lowered the stub of the generated potj51JVP
// for its specialization to one slice, potj51JVPInPlace):
// F51 vjp internal: gadgen: internal error in reverse on potj51JVPInPlace: runtime error: invalid memory address or nil pointer dereference
//
//difftest:len 1

package p

import "math"

// F51 is a random function.
//
//difftest:lanes 2
//difftest:modes vjp
func F51(dst []float64) float64 {
	s := 0.5
	e2, d3 := potj51JVP(dst, dst)

	s += e2
	s += d3

	return 0.5
}

//gad:jvp
func potj51(q []float64) float64 {
	e := 0.0
	for i := range q {
		e += 0.1 * math.Sqrt(1+q[i]*q[i])
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += 0.5 * d * d
	}
	return e
}

// potj51JVP is the derivative gadgen writes for potj51, written out for the twin.
//
//difftest:reference potj51
func potj51JVP(q, dq []float64) (float64, float64) {
	e, de := 0.0, 0.0
	for i := range q {
		e += 0.1 * math.Sqrt(1+q[i]*q[i])
		de += 0.1 * (q[i] / math.Sqrt(1+q[i]*q[i])) * dq[i]
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += 0.5 * d * d
		de += 2 * 0.5 * d * (dq[i+1] - dq[i])
	}
	return e, de
}
