// A case of difftest: program 52 of seed 5207 of its generator, minimized.
// It failed: F52 grad oracle dot: ⟨x̄, v⟩ = -0.92828792612935851, ⟨w, J·v⟩ = -0.94334961430101982 (complex step) at x = [0.6487664147220447 -0.2656310467128775 0.5280145093849546 0.5498876981225738 0.9723750289492634 0.35803965217935185 -0.1364269176739723 -0.6856419753091614 -0.36737805861273864 -0.03884731536854824], v =…
//
//difftest:len 5

package p

// F52 is a random function.
//
//difftest:wrt x2
//difftest:lanes 3
//difftest:modes grad
func F52(r1 [5]float64, x4 []float64) float64 {
	s := 0.5
	for range x4 {
		s7 := newState52(x4, 0.5)

		stepv52(*s7, 0.1, r1[4])

		s += s7.q[4]
	}
	return s
}

func newState52(a []float64, b float64) *state52 {
	s := &state52{q: make([]float64, len(a)), v: make([]float64, len(a))}
	for i := range a {
		s.q[i] = a[i]
	}
	return s
}

type state52 struct {
	q, v []float64
	hist []float64
}

func (s *state52) drift52(dt float64) {
}

func (s *state52) kick52(dt, c float64) {
}

//gad:checkpoint
func (s *state52) step52(dt, c float64) {
	s.kick52(dt/2, c)
	s.drift52(dt)
	s.kick52(dt/2, c)
	s.hist = append(s.hist, s.q[0]*s.v[0])
}

func stepv52(s state52, dt, c float64) {
	for i := range s.q {
		x := s.q[i]
		s.v[i] -= c * x
	}
	for i := range s.q {
		s.q[i] += s.v[i]
	}
}
