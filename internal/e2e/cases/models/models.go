// Package models is an end-to-end case of gadgen's reverse mode on the
// way Go users hold models: structs of slices as receivers and
// parameters (the gradient goes into a shadow struct of the same shape),
// nested structs, slices of structs, and memory allocated in loops and
// branches (a hidden vector per sample, a struct value per particle).
package models

//go:generate gadgen

import "math"

// Net is a one-hidden-layer network: W1 is nHid×nIn, W2 is nOut×nHid,
// row-major.
type Net struct {
	W1, B1, W2, B2 []float64
}

// Loss is the softmax cross-entropy of n on one sample x of class label,
// with a tanh hidden layer allocated per call.
//
//gad:grad wrt=n
//gad:jvp wrt=n
func (n *Net) Loss(x []float64, label int) float64 {
	nHid, nOut := len(n.B1), len(n.B2)
	h := make([]float64, nHid)
	for j := range nHid {
		a := n.B1[j]
		for i, xi := range x {
			a += n.W1[j*len(x)+i] * xi
		}
		h[j] = math.Tanh(a)
	}
	o := make([]float64, nOut)
	m := math.Inf(-1)
	for k := range nOut {
		a := n.B2[k]
		for j, hj := range h {
			a += n.W2[k*nHid+j] * hj
		}
		o[k] = a
		m = max(m, a)
	}
	z := 0.0
	for _, ok := range o {
		z += math.Exp(ok - m)
	}
	return math.Log(z) + m - o[label]
}

// BatchLoss is the mean loss over a mini-batch (xs holds the samples
// row-major): a hidden vector is allocated per sample, inside the loop.
//
//gad:grad wrt=n
//gad:jvp wrt=n
func (n *Net) BatchLoss(xs []float64, labels []int) float64 {
	nIn, nHid := len(xs)/len(labels), len(n.B1)
	total := 0.0
	for s, label := range labels {
		x := xs[s*nIn : (s+1)*nIn]
		h := make([]float64, nHid)
		for j := range h {
			a := n.B1[j]
			for i, xi := range x {
				a += n.W1[j*nIn+i] * xi
			}
			h[j] = math.Tanh(a)
		}
		out := 0.0
		for j, hj := range h {
			out += n.W2[label*nHid+j] * hj
		}
		total += out * out
	}
	return total / float64(len(labels))
}

// Model is a linear model with a bias: a struct of a slice and a float,
// passed by value.
type Model struct {
	W []float64
	B float64
}

// Predict is the squared output of m on x.
//
//gad:grad
//gad:jvp
func Predict(m Model, x []float64) float64 {
	y := m.B
	for i, w := range m.W {
		y += w * x[i]
	}
	return y * y
}

// Fit passes a model by value to a function and captures it in a
// closure: the callee's derivative takes a pointer to the model's shadow.
//
//gad:grad
//gad:jvp
func Fit(w []float64, b float64, x []float64) float64 {
	m := Model{W: w, B: b}
	y := Predict(m, x)
	g := func(t float64) float64 { return m.B*t + m.W[0]*t*t }
	return y + g(x[0])
}

// Layer is one affine layer; Stack holds layers of any widths.
type Layer struct {
	W, B []float64
}

// Stack is a network whose layers are a slice of structs of slices.
type Stack struct {
	Layers []Layer
}

// Forward runs x (of width len(Layers[0].W)/len(Layers[0].B)) through the
// layers with tanh and returns the sum of the outputs. A new activation
// slice is allocated for each layer.
//
//gad:grad wrt=s,x
//gad:jvp wrt=s,x
func (s *Stack) Forward(x []float64) float64 {
	act := x
	for _, l := range s.Layers {
		nOut := len(l.B)
		nIn := len(act)
		next := make([]float64, nOut)
		for o := range nOut {
			a := l.B[o]
			for i := range nIn {
				a += l.W[o*nIn+i] * act[i]
			}
			next[o] = math.Tanh(a)
		}
		act = next
	}
	sum := 0.0
	for _, v := range act {
		sum += v
	}
	return sum
}

// Particle is a point mass in the plane.
type Particle struct {
	Pos, Vel [2]float64
	M        float64
}

// Energy is the kinetic plus the pairwise potential energy of ps, read
// from a slice of structs.
//
//gad:grad
//gad:jvp
func Energy(ps []Particle) float64 {
	e := 0.0
	for i := range ps {
		p := ps[i]
		e += 0.5 * p.M * (p.Vel[0]*p.Vel[0] + p.Vel[1]*p.Vel[1])
		for j := i + 1; j < len(ps); j++ {
			dx := p.Pos[0] - ps[j].Pos[0]
			dy := p.Pos[1] - ps[j].Pos[1]
			e -= p.M * ps[j].M / math.Sqrt(dx*dx+dy*dy+1)
		}
	}
	return e
}

// Step advances the particles by one explicit Euler step of length dt
// under a spring to the origin, writing the new states into a slice of
// structs allocated in the function, and returns their total energy.
//
//gad:grad
//gad:jvp
func Step(ps []Particle, dt float64) float64 {
	next := make([]Particle, len(ps))
	for i, p := range ps {
		q := p
		for d := range 2 {
			q.Vel[d] -= dt * p.Pos[d] / p.M
			q.Pos[d] += dt * q.Vel[d]
		}
		next[i] = q
	}
	e := 0.0
	for _, q := range next {
		e += q.M*(q.Vel[0]*q.Vel[0]+q.Vel[1]*q.Vel[1]) + q.Pos[0]*q.Pos[0] + q.Pos[1]*q.Pos[1]
	}
	return e
}

// Branchy allocates its scratch in a branch.
//
//gad:grad
//gad:jvp
func Branchy(x []float64, wide bool) float64 {
	var buf []float64
	if wide {
		buf = make([]float64, 2*len(x))
		for i, v := range x {
			buf[2*i], buf[2*i+1] = v, v*v
		}
	} else {
		buf = make([]float64, len(x))
		for i, v := range x {
			buf[i] = math.Sin(v)
		}
	}
	s := 0.0
	for _, b := range buf {
		s += b * b
	}
	return s
}

// Inner holds a slice two levels down.
type Inner struct {
	V []float64
}

// Outer nests Inner by value and by pointer.
type Outer struct {
	A Inner
	P *Inner
	K float64
}

// Nested reads slices through nested structs.
//
//gad:grad
//gad:jvp
func Nested(o *Outer) float64 {
	s := o.K
	for i, v := range o.A.V {
		s += v * o.P.V[i] * o.K
	}
	return s
}

// Trajectory integrates dx/dt = -k·x from x0 with explicit Euler steps,
// appending each state to a history that grows in the loop, and scores
// the history against the decaying target e^(-t).
//
//gad:grad
//gad:jvp
func Trajectory(x0, k float64, steps int) float64 {
	hist := []float64{x0}
	dt := 1.0 / float64(steps)
	for i := range steps {
		x := hist[i]
		hist = append(hist, x-dt*k*x)
	}
	s := 0.0
	for i, x := range hist {
		d := x - math.Exp(-float64(i)*dt)
		s += d * d
	}
	return s
}

// Concat joins slices with append(…, xs...) and appends slices to a
// slice of rows.
//
//gad:grad
//gad:jvp
func Concat(a, b []float64) float64 {
	all := append([]float64(nil), a...)
	all = append(all, b...)
	all = append(all, a[0]*b[0], 2)
	var rows [][]float64
	for i := 0; i+1 < len(all); i += 2 {
		rows = append(rows, all[i:i+2])
	}
	s := 0.0
	for _, r := range rows {
		s += r[0]*r[1] + math.Sin(r[0])
	}
	return s
}

// dense returns tanh(W·x + b) in a new slice (W is len(b)×len(x)).
func dense(w, b, x []float64) []float64 {
	out := make([]float64, len(b))
	for o := range out {
		a := b[o]
		for i, xi := range x {
			a += w[o*len(x)+i] * xi
		}
		out[o] = math.Tanh(a)
	}
	return out
}

// scaleTo writes a·x into dst and returns dst, gonum-style.
func scaleTo(dst []float64, a float64, x []float64) []float64 {
	for i, v := range x {
		dst[i] = a * v
	}
	return dst
}

// Layers composes helpers that return slices: two dense layers, and a
// destination-first helper that returns its destination.
//
//gad:grad wrt=w1,b1,w2,b2,x
//gad:jvp wrt=w1,b1,w2,b2,x
func Layers(w1, b1, w2, b2, x []float64) float64 {
	h := dense(w1, b1, x)
	tmp := make([]float64, len(h))
	h2 := scaleTo(tmp, 0.5, h)
	o := dense(w2, b2, h2)
	s := 0.0
	for _, v := range o {
		s += v * v
	}
	return s
}

// Softmax returns the softmax of x, a new slice: its VJP takes the
// adjoints of the result's elements as seed.
//
//gad:vjp
//gad:jvp
func Softmax(x []float64) []float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	out := make([]float64, len(x))
	z := 0.0
	for i, v := range x {
		out[i] = math.Exp(v - m)
		z += out[i]
	}
	for i := range out {
		out[i] /= z
	}
	return out
}

func grow(x float64) []float64 { return []float64{x, 2 * x, x * x} }

// Grow calls a function returning a new slice of its scalar argument.
//
//gad:grad
//gad:jvp
func Grow(x float64) float64 {
	ys := grow(x)
	return ys[0]*ys[1] + math.Sin(ys[2])
}
