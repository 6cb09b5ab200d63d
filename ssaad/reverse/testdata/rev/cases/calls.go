package cases

import "math"

func sq(x float64) float64 { return x * x }

func norm2(a, b float64) float64 { return math.Sqrt(sq(a) + sq(b)) }

// Chain calls helpers of helpers.
func Chain(x, y float64) float64 { return norm2(x, y) * sq(y-x) }

func sumExp(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Exp(v)
	}
	return s
}

// InLoop calls a helper reading a slice in a loop.
func InLoop(x []float64) float64 {
	s := 0.0
	for i := range 3 {
		s += sumExp(x) * float64(i+1) * s
	}
	return s
}

func power(x float64, n int) float64 {
	if n == 0 {
		return 1
	}
	return x * power(x, n-1)
}

// Recursive calls a recursive helper.
func Recursive(x float64) float64 { return power(x, 3) + power(x*x, 2) }

// State is stepped in place by its methods.
type State struct {
	Q, V []float64
}

func (s *State) step(k, dt float64) {
	for i := range s.Q {
		s.V[i] -= dt * k * math.Sin(s.Q[i])
		s.Q[i] += dt * s.V[i]
	}
}

func newState(q0 []float64) *State {
	s := &State{Q: make([]float64, len(q0)), V: make([]float64, len(q0))}
	copy(s.Q, q0)
	return s
}

func (s *State) energy(k float64) float64 {
	e := 0.0
	for i := range s.Q {
		e += 0.5*s.V[i]*s.V[i] - k*math.Cos(s.Q[i])
	}
	return e
}

// Steps steps a state built by a helper (fresh memory) in a loop: the
// calls are reversed jointly with snapshots of the state.
func Steps(k float64, q0 []float64, n int) float64 {
	s := newState(q0)
	for range n {
		s.step(k, 0.1)
	}
	return s.energy(k)
}

func fill(dst []float64, a float64) {
	for i := range dst {
		dst[i] = a * float64(i+1) * a
	}
}

// UseFill calls a helper that writes a local buffer.
func UseFill(x float64) float64 {
	buf := make([]float64, 3)
	fill(buf, x*x)
	r := buf[1] * buf[2]
	fill(buf, r)
	return buf[0] + r
}

func scaled(x []float64, a float64) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		out[i] = x[i] * a
	}
	return out
}

// Fresh calls a helper returning fresh memory.
func Fresh(x []float64, a float64) float64 {
	y := scaled(x, a)
	z := scaled(y, a*a)
	return Dot(y, z)
}

func inPlace(x []float64) []float64 {
	for i := range x {
		x[i] = math.Sin(x[i])
	}
	return x
}

// Same calls a helper returning its argument.
func Same(x []float64) float64 {
	y := inPlace(x)
	y[0] *= 2
	return y[0] * y[1]
}

func divmod(x, y float64) (float64, float64) {
	q := x / y
	return q, x - q*y*y
}

// TwoResults calls a helper of two results.
func TwoResults(x, y float64) float64 {
	q, r := divmod(x*x, y)
	return q * r
}

// Spring has a method.
type Spring struct{ K float64 }

func (s Spring) energy(x float64) float64 { return 0.5 * s.K * x * x }

// Total calls a method of a struct parameter.
func Total(s Spring, x float64) float64 { return s.energy(x) + s.K*x }

func mean(xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Variadic calls a variadic helper.
func Variadic(x, y float64) float64 { return mean(x, y*y, x*y) }

func accumulate(dst, x []float64, a float64) {
	for i := range dst {
		dst[i] += a * x[i]
	}
}

// Accumulate calls a helper that adds into its parameter's memory.
func Accumulate(x, y []float64) float64 {
	acc := make([]float64, len(x))
	for k := range 2 {
		accumulate(acc, x, float64(k+1))
		accumulate(acc, y, acc[0])
	}
	return acc[0] * acc[1]
}
