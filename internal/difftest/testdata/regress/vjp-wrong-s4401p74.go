// A case of difftest: program 74 of seed 4401 of its generator, minimized.
// It failed: F74 vjp value: y[1]: got -0.13361246694507503, want -0.15601050915785428 (scale 0.915, rel 1e-13) at x = [0.938186681741827 -0.12241344583868541 -0.06348283476257555 0.06794776714650208 0.03748443989005845 -0.18803371523417334 0.9148522067704499] along v = [0.9371891133508998 -0.5986888322786406 0.1688673423586162…
//
//difftest:len 3

package p

// F74 is a random function.
//
//difftest:wrt x3
//difftest:lanes 3
//difftest:modes vjp
func F74(x1 float64, x2 []float64, x3 []float64) float64 {
	s := x2[0]

	s4 := newState74(x3, x1)

	s7 := wrap74(x2, s*s4.q[2])
	for k8 := 0; k8 < 3; k8++ {
		s7.step74(0.1, -x2[1])
	}

	return s
}

func newState74(a []float64, b float64) *state74 {
	s := &state74{q: make([]float64, len(a)), v: make([]float64, len(a))}
	for i := range a {
		s.q[i] = a[i]
	}
	return s
}

type state74 struct {
	q, v []float64
	hist []float64
}

func (s *state74) drift74(dt float64) {
	for i := range s.q {
		s.q[i] += dt * s.v[i]
	}
}

func (s *state74) step74(dt, c float64) {
	s.drift74(dt)
}

func wrap74(a []float64, b float64) *state74 {
	s := &state74{q: a, v: make([]float64, len(a))}
	for i := range a {
		s.v[i] = b
	}
	return s
}
