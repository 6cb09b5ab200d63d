package cases

import "math"

// Calls of functions that store fresh slices into their caller's memory:
// reversed in two halves (split reversal), not recomputed.

// SLayer keeps the activations of its last forward pass.
type SLayer struct{ W, H []float64 }

func (l *SLayer) forward(x []float64) {
	h := make([]float64, len(l.W))
	for i := range h {
		h[i] = math.Tanh(l.W[i] * x[i])
	}
	l.H = h
}

// SplitSet calls a method that stores its activations into the layer;
// the caller then writes both what the method read and what it stored.
func SplitSet(w, x []float64) float64 {
	l := &SLayer{W: w}
	l.forward(x)
	s := 0.0
	for _, v := range l.H {
		s += v * v
	}
	x[0] = 3
	l.H[1] = 0.5 * l.H[1] * x[1]
	return s + l.H[1]
}

// Sim is a state of slices stepped by a method that replaces them.
type Sim struct{ Q, V []float64 }

func (s *Sim) step(dt float64) {
	q := make([]float64, len(s.Q))
	for i := range q {
		q[i] = s.Q[i] + dt*s.V[i]
		s.V[i] -= dt * math.Sin(q[i])
	}
	s.Q = q
}

// SplitSteps steps a Sim n times in a loop.
func SplitSteps(q, v []float64, n int) float64 {
	s := &Sim{Q: q, V: v}
	for k := 0; k < n; k++ {
		s.step(0.1 + 0.01*float64(k))
	}
	e := 0.0
	for i := range s.Q {
		e += s.Q[i]*s.Q[i] + s.V[i]*s.V[i]*s.Q[i]
	}
	return e
}

func (l *SLayer) scaled(a float64, x []float64) float64 {
	h := make([]float64, len(l.W))
	t := 0.0
	for i := range h {
		h[i] = a * l.W[i] * x[i]
		t += h[i] * h[i]
	}
	l.H = h
	return math.Sqrt(t) * a
}

// SplitScalar passes a float and returns one through a split call, in a
// branch.
func SplitScalar(w, x []float64, a float64) float64 {
	l := &SLayer{W: w}
	r := 0.0
	if a > 0 {
		r = l.scaled(a*a, x)
	} else {
		r = l.scaled(-a, x)
	}
	return r * l.H[0]
}

func wrapSim(q []float64, c float64) *Sim {
	v := make([]float64, len(q))
	for i := range v {
		v[i] = c * q[i]
	}
	return &Sim{Q: q, V: v}
}

// SplitWrap calls a helper returning a struct that holds its argument:
// its forward half returns the struct's shadow.
func SplitWrap(q []float64, c float64) float64 {
	s := wrapSim(q, c)
	s.step(0.1)
	e := 0.0
	for i := range s.Q {
		e += s.Q[i] * s.V[i]
	}
	return e + q[0]*s.V[0]
}

func tail(x []float64) []float64 { return x[1:] }

// SplitTail calls a function returning part of its argument: split, its
// forward half returns the part's shadow.
func SplitTail(x []float64) float64 {
	t := tail(x)
	t[1] *= t[0]
	return t[1]*x[0] + x[1]
}

func push(s []float64, v float64) []float64 { return append(s, v) }

// SplitPush calls a function returning its argument or new memory.
func SplitPush(x []float64) float64 {
	y := push(x[:2], x[0]*x[0])
	y[1] = math.Sin(y[2])
	return y[len(y)-1]*y[0] + x[1]*y[1]
}
