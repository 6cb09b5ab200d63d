// Package replace is an end-to-end case of reverse mode on functions that
// replace slices and pointers in their parameters' memory with new ones
// (l.W = w with w fresh): the gradient with respect to what the memory
// held on entry goes into the shadow the caller gave, which the reverse
// sweep puts back where the forward sweep replaced it. Each function has a
// //gad:jvp too, for the dot-product test.
package replace

//go:generate gadgen

import "math"

// Layer is a layer of weights.
type Layer struct {
	W []float64
	B float64
}

// Model holds layers by value and a scale behind a pointer.
type Model struct {
	Layers []Layer
	Scale  *float64
}

// Widened grows l's weights into a new slice twice as long, padded with
// zeros, and keeps it in l.
//
//gad:jvp
//gad:grad
func Widened(l *Layer) float64 {
	w := make([]float64, 2*len(l.W))
	copy(w, l.W)
	l.W = w
	return l.W[0]*l.W[1] + l.B*w[len(w)-1]
}

// Refined replaces l.W, steps times, by a smoothed copy of it.
//
//gad:jvp
//gad:grad
func Refined(l *Layer, steps int) float64 {
	for range steps {
		w := make([]float64, len(l.W))
		for i := range w {
			w[i] = 0.5*l.W[i] + 0.25*math.Sin(l.W[(i+1)%len(l.W)])
		}
		l.W = w
	}
	s := 0.0
	for _, x := range l.W {
		s += x * x
	}
	return s + l.B
}

// Rebuilt replaces every layer of m by a new one made from it, through
// the layer's address in the slice, and the scale by a new pointer.
//
//gad:jvp
//gad:grad
func Rebuilt(m *Model, x float64) float64 {
	for i := range m.Layers {
		old := m.Layers[i]
		w := make([]float64, len(old.W))
		for j, v := range old.W {
			w[j] = v*x + old.B
		}
		m.Layers[i] = Layer{W: w, B: 2 * old.B}
	}
	s := *m.Scale * x
	m.Scale = &s
	out := 0.0
	for _, l := range m.Layers {
		for _, v := range l.W {
			out += math.Tanh(v) * *m.Scale
		}
		out += l.B
	}
	return out
}

// Swapped exchanges two layers' weights, then reads them through the new
// places, in a branch.
//
//gad:jvp
//gad:grad
func Swapped(a, b *Layer, x float64) float64 {
	if x > 0 {
		a.W, b.W = b.W, a.W
	}
	return a.W[0]*x + b.W[1]*b.W[0] + a.B
}

// history is a state whose step records a copy of its positions.
type history struct {
	q    []float64
	past [][]float64
}

// record steps q and appends a copy of it to the history: a store of a
// fresh slice into memory the caller reaches. Marked //gad:checkpoint,
// which reverse mode cannot follow (joint reversal does not restore what
// it replaced): gadgen inlines it and warns.
//
//gad:checkpoint
func (h *history) record(dt float64) {
	for i := range h.q {
		h.q[i] += dt * h.q[i] * h.q[i]
	}
	h.past = append(h.past, append([]float64(nil), h.q...))
}

// Recorded sums products over the recorded history.
//
//gad:jvp
//gad:grad
func Recorded(q0 []float64) float64 {
	h := &history{q: append([]float64(nil), q0...)}
	for range 3 {
		h.record(0.1)
	}
	e := 0.0
	for _, p := range h.past {
		e += p[0] * p[len(p)-1]
	}
	return e
}

// axpy adds a·x[i]² to y[i].
func axpy(y, x []float64, a float64) {
	for i := range y {
		y[i] += a * x[i] * x[i]
	}
}

// Shifted calls axpy in a loop on two overlapping parts of one slice:
// joint reversal would take them apart (it gave a wrong gradient), so
// gadgen inlines the call.
//
//gad:jvp
//gad:grad
func Shifted(x []float64, a float64) float64 {
	y := append([]float64(nil), x...)
	n := len(y)
	for range 3 {
		axpy(y[1:], y[:n-1], a)
	}
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	return s
}
