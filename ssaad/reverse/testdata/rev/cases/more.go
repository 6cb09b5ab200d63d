package cases

import "math"

// Rows allocates a row in each iteration of an outer loop and reads it in
// the loops nested in it, with a value the iteration computes.
func Rows(x []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		row := make([]float64, len(x))
		c := math.Sin(float64(i) + s)
		for j := range x {
			row[j] = x[j] * c
		}
		for j := range row {
			s += row[j] * row[j] * c
		}
	}
	return s
}

// Maybe allocates a buffer on one path only.
func Maybe(x []float64) float64 {
	var buf []float64
	if x[0] > 0 {
		buf = make([]float64, len(x))
		for i := range x {
			buf[i] = x[i] * x[i]
		}
	} else {
		buf = x
	}
	s := 0.0
	for _, v := range buf {
		s += math.Sin(v)
	}
	return s
}

// EarlyReturn returns from inside a loop.
func EarlyReturn(x []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * s
		if s > 2 {
			return s * x[0]
		}
		s += 1
	}
	return s
}

// Switch branches on an index in a loop.
func Switch(x []float64) float64 {
	s := 0.0
	for i := range x {
		switch i % 3 {
		case 0:
			s += x[i] * x[i]
		case 1:
			s *= x[i]
		default:
			s = math.Exp(s) - x[i]
		}
	}
	return s
}

// Grow appends to its parameter and reads the result.
func Grow(x []float64, a float64) float64 {
	y := append(x[:len(x):len(x)], a*a, a)
	s := 0.0
	for i := range y {
		s += y[i] * y[len(y)-1-i]
	}
	return s
}

// Ptr writes through a pointer to a float.
func Ptr(p *float64, x float64) float64 {
	*p = *p * x
	*p += math.Sin(*p)
	return *p * x
}

// Holder keeps a slice in a local struct.
type Holder struct {
	Data []float64
	K    float64
}

// Hold stores a slice into a local struct and reads it back.
func Hold(x []float64, k float64) float64 {
	h := &Holder{K: k}
	h.Data = x
	s := 0.0
	for _, v := range h.Data {
		s += v * h.K
	}
	h.Data[0] = s
	return h.Data[0] * h.Data[1]
}

func total(l Layer, x float64) float64 {
	s := 0.0
	for _, w := range l.W {
		s += w * x
	}
	return s * *l.B
}

// PassLayer passes a struct holding memory by value to a function.
func PassLayer(w []float64, b, x float64) float64 {
	l := Layer{W: w, B: &b, N: len(w)}
	return total(l, x) * x
}

// Run steps a state parameter in place with calls: the reverse
// restores it around them, and puts back its final contents.
func Run(s *State, k float64, n int) float64 {
	for range n {
		s.step(k, 0.1)
	}
	return s.energy(k)
}

// Reassign replaces a slice of a state after calls that read it.
func Reassign(k float64, q0 []float64) float64 {
	s := newState(q0)
	e := s.energy(k)
	s.step(k, 0.2)
	s.Q = scaled(s.Q, e)
	return e + s.energy(k)
}

// Self calls a function with one slice as both arguments.
func Self(x []float64) float64 { return Dot(x, x) + Dot(x[1:], x) }

// Cubes fills a local array in a loop.
func Cubes(x float64) float64 {
	var a [4]float64
	for i := range a {
		a[i] = x * float64(i)
		a[i] *= a[i] * x
	}
	return a[1] + a[2]*a[3]
}

// Counter loops on a counter the body changes.
func Counter(x []float64) float64 {
	s := 0.0
	i := 0
	for i < len(x) {
		s = s*x[i] + 1
		if x[i] > 0 {
			i += 2
		} else {
			i++
		}
	}
	return s
}

// MatMul multiplies matrices held in flat slices, in a triple nest.
func MatMul(a, b []float64, n int) float64 {
	c := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for k := range n {
				s += a[i*n+k] * b[k*n+j]
			}
			c[i*n+j] = math.Tanh(s)
		}
	}
	s := 0.0
	for _, v := range c {
		s += v
	}
	return s
}

// Pos returns a fresh pointer (vjp).
func Pos(x float64) *Point {
	return &Point{x * x, math.Sin(x)}
}

// Norm is gonum=true on a method.
func (l *Layer) Loss(x []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * x[i] * l.W[i]
	}
	return s
}

// Driven steps a state by two calls a step, with a force computed from
// the index and read from memory the function never writes (f): with
// checkpoint=C the steps run again compute them again.
func Driven(s *State, f []float64, k float64, n int) float64 {
	for t := 0; t < n; t++ {
		s.step(k*f[t%len(f)], 0.1)
		s.step(k, 0.05*float64(t+1))
	}
	return s.energy(k)
}

// stepped steps the state and returns what it moved the first position.
func (s *State) stepped(k, dt float64) float64 {
	q := s.Q[0]
	s.step(k, dt)
	return s.Q[0] - q
}

// Summed carries from step to step a sum of what the steps return, and
// the time: with checkpoint=C the copies hold them.
func Summed(k float64, q0 []float64, n int) float64 {
	s := newState(q0)
	e, t := 0.0, 0.0
	for range n {
		e += s.stepped(k, 0.1+0.01*t)
		t += 0.1
	}
	return e + s.energy(k)*t
}

// Loaded reads the state between the steps: checkpoint=C does not apply.
func Loaded(k float64, q0 []float64, n int) float64 {
	s := newState(q0)
	e := 0.0
	for range n {
		s.step(k, 0.1)
		e += s.Q[0]
	}
	return e + s.energy(k)
}

// Factor fills a fresh matrix once, then factors it in place by
// Cholesky: the reverse puts back what the factorization overwrote, but
// the fill's stores, which nothing read before, need no old values.
func Factor(a []float64) float64 {
	n := len(a)
	k := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			k[i*n+j] = a[i] * a[j]
		}
		k[i*n+i] = a[i]*a[i] + 2
	}
	for j := 0; j < n; j++ {
		s := k[j*n+j]
		for c := 0; c < j; c++ {
			s -= k[j*n+c] * k[j*n+c]
		}
		d := math.Sqrt(s)
		k[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := k[i*n+j]
			for c := 0; c < j; c++ {
				s -= k[i*n+c] * k[j*n+c]
			}
			k[i*n+j] = s / d
		}
	}
	sum := 0.0
	for i := 0; i < n; i++ {
		sum += math.Log(k[i*n+i]) + k[i*n]
	}
	return sum
}
