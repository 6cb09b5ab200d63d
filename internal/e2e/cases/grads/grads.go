// Package grads is an end-to-end case of gadgen's reverse mode
// (//gad:grad): each function has both a gradient and a JVP, and the tests
// check the gradient against central finite differences and against the
// JVP (⟨∇f, v⟩ = JVP along v).
package grads

//go:generate gadgen

import "math"

// Rosenbrock is the n-dimensional Rosenbrock function.
//
//gad:grad
//gad:jvp
func Rosenbrock(x []float64) float64 {
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		sum += 100*a*a + b*b
	}
	return sum
}

// Branchy has a data-dependent branch and scalar parameters.
//
//gad:grad test=true
//gad:jvp test=true
func Branchy(x, y float64) float64 {
	z := math.Sin(x) * y
	if z > 0 {
		z = z / (1 + x*x)
	} else {
		z -= math.Exp(-y * y)
	}
	return z + math.Exp(y)
}

// Series sums the Taylor series of sin until the terms are negligible: a
// loop with a data-dependent exit.
//
//gad:grad
//gad:jvp
func Series(x float64) float64 {
	s, term := 0.0, x
	for k := 1; k < 100; k++ {
		s += term
		term *= -x * x / float64((2*k)*(2*k+1))
		if math.Abs(term) < 1e-16 {
			break
		}
	}
	return s
}

// Quad is xᵀAx for a fixed matrix A in row-major order: nested loops.
//
//gad:grad wrt=x
//gad:jvp wrt=x
func Quad(a []float64, x []float64) float64 {
	n := len(x)
	q := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			q += a[i*n+j] * x[i] * x[j]
		}
	}
	return q
}

// Smooth writes a local slice, then reads it back: tapes and shadows of
// local memory, and an element overwritten in place.
//
//gad:grad
//gad:jvp
func Smooth(x []float64) float64 {
	n := len(x)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		y[i] = x[i] * x[i]
	}
	for i := 1; i < n; i++ {
		y[i] = 0.5*y[i] + 0.5*y[i-1]
	}
	s := 0.0
	for i := 0; i < n; i++ {
		s += math.Sqrt(1 + y[i])
	}
	return s
}

// Clip uses min, max, Abs and a select-like branch.
//
//gad:grad
//gad:jvp
func Clip(x []float64, lo, hi float64) float64 {
	s := 0.0
	for _, v := range x {
		c := max(lo, min(v, hi))
		s += c*c + math.Abs(v)
	}
	return s
}

// Polar uses a math function with two results and one with two arguments.
//
//gad:grad
//gad:jvp
func Polar(r, theta float64) float64 {
	s, c := math.Sincos(theta)
	return math.Atan2(r*s, 1+r*c) + math.Hypot(r, theta)
}

// Single is float32 code with conversions.
//
//gad:grad
//gad:jvp
func Single(x []float32) float32 {
	var s float32
	for i := range x {
		s += x[i] * float32(math.Exp(float64(x[i])/4))
	}
	return s
}

// Poly evaluates a polynomial by Horner's rule, with fixed coefficients,
// returning early for an empty one.
//
//gad:grad wrt=x
//gad:jvp wrt=x
func Poly(c []float64, x float64) float64 {
	if len(c) == 0 {
		return 0
	}
	r := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		r = r*x + c[i]
	}
	return r
}

// Regime switches on an int computed from the data.
//
//gad:grad
//gad:jvp
func Regime(x, y float64) float64 {
	k := int(math.Floor(x))
	switch k {
	case 0:
		return x * y
	case 1:
		return x - y*y
	default:
		return math.Tanh(x + y)
	}
}

// sq is a helper of scalars.
func sq(x float64) float64 { return x * x }

// dot is a helper that reads two slices.
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Energy calls helpers: of scalars, and of slices it only reads.
//
//gad:grad
//gad:jvp
func Energy(x []float64, k float64) float64 {
	e := 0.5 * k * dot(x, x)
	for i := 1; i < len(x); i++ {
		e += sq(x[i]-x[i-1]) * math.Exp(-sq(k))
	}
	return e
}

// Pow computes x^n by recursion: the gradient calls itself.
//
//gad:grad wrt=x
//gad:jvp wrt=x
func Pow(x float64, n int) float64 {
	if n == 0 {
		return 1
	}
	if n%2 == 1 {
		return x * Pow(x, n-1)
	}
	h := Pow(x, n/2)
	return h * h
}

// axpyInto adds a·x to dst.
func axpyInto(dst, x []float64, a float64) {
	for i := range dst {
		dst[i] += a * x[i]
	}
}

// Scratch uses a caller's buffer as scratch space: the buffer is not
// varied (wrt=x) but receives varied values, so the gradient gives it a
// zero shadow of its own.
//
//gad:grad wrt=x
//gad:jvp wrt=x
func Scratch(x, buf []float64) float64 {
	axpyInto(buf, x, 2)
	s := 0.0
	for _, v := range buf {
		s += v * v
	}
	return s
}

// Vec is a struct of floats that carries derivatives as a value.
type Vec struct{ X, Y, Z float64 }

// sub returns a − b: a helper with a struct result.
func sub(a, b Vec) Vec { return Vec{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// cross returns a × b.
func cross(a, b Vec) Vec {
	return Vec{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Area is the area of the triangle abc: struct parameters, and helpers
// taking and returning structs.
//
//gad:grad
//gad:jvp
func Area(a, b, c Vec) float64 {
	n := cross(sub(b, a), sub(c, a))
	return 0.5 * math.Sqrt(n.X*n.X+n.Y*n.Y+n.Z*n.Z)
}

// Horner4 evaluates a cubic with coefficients in an array at x, indexing
// the array with a loop index.
//
//gad:grad
//gad:jvp
func Horner4(c [4]float64, x float64) float64 {
	r := 0.0
	for i := 3; i >= 0; i-- {
		r = r*x + c[i]
	}
	return r
}

// ToPolar returns the polar coordinates of (x, y): a function with two
// results, whose VJP takes a seed for each.
//
//gad:vjp
//gad:jvp
func ToPolar(x, y float64) (r, theta float64) {
	return math.Hypot(x, y), math.Atan2(y, x)
}

// Softmax writes softmax(x) into dst: the VJP reads the seeds from ddst
// (and clears it) and adds Jᵀ·ddst into dx.
//
//gad:vjp
//gad:jvp
func Softmax(dst, x []float64) {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	s := 0.0
	for i, v := range x {
		dst[i] = math.Exp(v - m)
		s += dst[i]
	}
	for i := range dst {
		dst[i] /= s
	}
}

// Envelope takes the max and min of three values.
//
//gad:grad
//gad:jvp
func Envelope(x, y, z float64) float64 {
	return max(x*y, y*z, z*x) - min(x, 2*y, z/2)
}

// Spring is a chain of springs of stiffness K.
type Spring struct{ K float64 }

// Energy is the elastic energy of the chain of masses at x with rest
// length r: a method, with a slice and a scalar parameter, whose test
// gadgen writes (test=3: x has 3 elements at the points checked).
//
//gad:grad wrt=x,r test=3
//gad:jvp wrt=x,r test=3
func (s Spring) Energy(x []float64, r float64) float64 {
	e := 0.0
	for i := 1; i < len(x); i++ {
		d := x[i] - x[i-1] - r
		e += 0.5 * (s.K + 1) * d * d
	}
	return e
}

// Evolve steps a state the caller owns in place through a helper that
// reads and writes it: the gradient's reverse sweep restores the state
// for each step's reverse, and must leave it as Evolve does.
//
//gad:grad wrt=x
//gad:jvp wrt=x
func Evolve(x, state []float64) float64 {
	for k := 0; k < 3; k++ {
		evolveStep(state, x)
	}
	return state[0] * state[len(state)-1]
}

func evolveStep(s, x []float64) {
	for i := range s {
		s[i] = s[i]*x[i] + math.Sin(s[i])
	}
}

// Layers runs x through three layers in place, each reading the output of
// the one before: the input of a layer is a slice chosen at run time (x
// at first, then the previous layer's output), as in an LSTM's predict.
//
//gad:grad
//gad:jvp
func Layers(x []float64) float64 {
	n := len(x) / 2
	work := make([]float64, 3*n)
	y := x[:n]
	for k := 0; k < 3; k++ {
		h := work[k*n : (k+1)*n]
		layer(h, y, x[n:])
		y = h
	}
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	return s
}

func layer(h, y, w []float64) {
	for j := range h {
		h[j] = math.Tanh(y[j]*w[j] + y[(j+1)%len(y)])
	}
}

// Pick chooses, by a branch, which of two slices a helper reads.
//
//gad:grad test=4
//gad:jvp test=4
func Pick(x []float64) float64 {
	a := make([]float64, len(x))
	b := make([]float64, len(x))
	for i := range x {
		a[i] = x[i] * x[i]
		b[i] = math.Sin(x[i])
	}
	src := a
	if x[0] > 0 {
		src = b
	}
	return weigh(src, x)
}

func weigh(src, w []float64) float64 {
	s := 0.0
	for i := range src {
		s += src[i] * math.Exp(w[i])
	}
	return s
}

// Accumulate calls, three times, a helper that adds to a running sum and
// reads it back: the caller saves the sum before each call, since the
// next call overwrites it and the helper's reverse reads it.
//
//gad:grad test=true
//gad:jvp test=true
func Accumulate(x []float64) float64 {
	acc := make([]float64, len(x))
	s := 0.0
	for k := 0; k < 3; k++ {
		s += addRead(acc, x)
	}
	return s
}

func addRead(acc, x []float64) float64 {
	t := 0.0
	for i := range acc {
		acc[i] += x[i] * x[i]
		t += acc[i] * acc[i]
	}
	return t
}

// AccumulateOnly calls a helper that only adds to a running sum: what the
// sum held before a call matters to neither the helper's result nor its
// derivatives, so nothing is saved around the calls.
//
//gad:grad test=true
//gad:jvp test=true
func AccumulateOnly(x []float64) float64 {
	acc := make([]float64, len(x))
	for k := 0; k < 3; k++ {
		addSquares(acc, x)
	}
	s := 0.0
	for i := range acc {
		s += acc[i] * math.Sin(acc[i])
	}
	return s
}

func addSquares(acc, x []float64) {
	for i := range acc {
		acc[i] += x[i] * x[i]
	}
}

// Ackley is Ackley's test function; its gradient is generated without
// the value (value=false), as an optimizer that asks for gradients alone
// would call it, and a loop computes only what the gradient needs. The
// tests test=true writes take the value from Ackley.
//
//gad:grad value=false test=true
//gad:jvp test=true
func Ackley(x []float64, a float64) float64 {
	s, c := 0.0, 0.0
	for _, v := range x {
		s += v * v
		c += math.Cos(2 * math.Pi * v)
	}
	n := float64(len(x))
	return -a*math.Exp(-0.2*math.Sqrt(s/n)) - math.Exp(c/n) + a + math.E
}

// Norm2 is the Euclidean norm, a function of one slice whose gradient
// without the value (value=false) test=true checks through a closure that
// takes the value from Norm2.
//
//gad:grad value=false test=true
func Norm2(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// Refill reuses a scratch slice, clearing it with the builtin clear
// between uses, directly and in a callee (as GradBench's ode eval clears
// the state it integrates): the values clear drops have zero adjoints.
//
//gad:grad test=true
//gad:jvp test=true
func Refill(x []float64) float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = math.Sin(v)
	}
	s := y[0] * y[len(y)-1]
	clear(y)
	for i, v := range x {
		y[i] += 3 * v * v
	}
	s += y[len(y)/2] * y[0]
	rescale(y, x)
	for _, v := range y {
		s += v * v
	}
	return s
}

// rescale clears dst and adds into it x scaled by x[0].
func rescale(dst, x []float64) {
	clear(dst)
	for i, v := range x {
		dst[i] += v * x[0]
	}
}

// Cubes32 computes in float32 from float64 inputs: the tests that
// test=true writes take gadtest.Float32(), since central differences at
// float64's step would measure its round-off.
//
//gad:grad test=true
//gad:jvp test=true
func Cubes32(x []float64) float64 {
	var acc float32
	for _, v := range x {
		w := float32(v)
		acc += w * w * w
	}
	return float64(acc) + math.Sqrt(float64(acc*acc)+1)
}
