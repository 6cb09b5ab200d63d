// A case of difftest: program 1536 of seed 31 of its generator, minimized.
// It failed: F1536 taylor compile: taylor/c4_grad.go:21:2: declared and not used: t
//
//difftest:len 1

package p

// F1536 is a random function.
//
//difftest:modes taylor
func F1536(mp1 *Model) float64 {
	s := mp1.W[0]

	s = min(s, s)

	return s
}
