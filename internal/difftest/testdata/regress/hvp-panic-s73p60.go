// A case of difftest: program 60 of seed 73 of its generator, minimized.
// It failed: F60 hvp panic: runtime error: index out of range [0] with length 0 at /tmp/difftest-468483766/second/c6_grad.go:42 +0x67
//
// The JVP of F60's gradient takes mv2's addressable copy for varied: the
// gradient passes it, with varied arguments, to score60's reverse-mode
// variant, a generated function whose writes activity analysis does not
// know (callWrites: a Callee.Derived, so every argument may be written).
// Forward mode gives the copy the zero tangent Model{}, and the tangent
// of mv2.W[0] indexes its nil W. A plain //gad:jvp wrt=x does the same
// where a fixed Model's copy takes a varied value (m := &mv; m.B = x[0];
// return m.B * m.W[0]).
//
//difftest:len 1

package p

// F60 is a random function.
//
//difftest:wrt x1
//difftest:modes hvp taylor line
func F60(x1 []float64, mv2 Model) float64 {
	s := 0.5
	s -= mv2.score60(x1)
	return s * mv2.W[0]
}

func (m *Model) score60(x []float64) float64 {
	return 0.5
}
