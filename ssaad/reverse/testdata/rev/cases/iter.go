package cases

import "math"

// Keep allocates memory in each iteration, keeps it, and writes it again
// after the loop.
func Keep(x []float64) float64 {
	var all [][]float64
	for i := range x {
		t := make([]float64, 2)
		t[0] = x[i] * x[i]
		t[1] = math.Sin(t[0])
		all = append(all, t)
	}
	s := 0.0
	for _, t := range all {
		t[0] *= t[1]
		s += t[0] * t[1]
	}
	return s
}

// Rebias replaces a pointer in its parameter's memory.
func Rebias(l *Layer, x float64) float64 {
	b := *l.B * x
	l.B = &b
	return *l.B * *l.B * l.W[0]
}

// FloatCounter loops on a float counter.
func FloatCounter(x float64) float64 {
	s := 0.0
	for t := 0.0; t < 2; t += 0.25 {
		s += math.Sin(t*x) * s / (1 + t)
		s += x
	}
	return s
}

// Vec is an array type.
type Vec [3]float64

// Cross works on arrays by value and writes a copy.
func Cross(a, b Vec) float64 {
	c := Vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	a[0] = c[1]
	return c[0]*c[0] + c[1]*c[2] + a[0]*a[1]
}

// Body has an array and a slice.
type Body struct {
	Pos [2]float64
	Vel []float64
	M   float64
}

// Bodies steps structs in a slice in place.
func Bodies(bs []Body, dt float64) float64 {
	for k := range 2 {
		for i := range bs {
			b := &bs[i]
			b.Pos[0] += dt * b.Vel[0] * float64(k+1)
			b.Pos[1] += dt * b.Vel[1] * b.M
			b.Vel[0] -= dt * b.Pos[0]
		}
	}
	e := 0.0
	for _, b := range bs {
		e += b.M * (b.Pos[0]*b.Pos[0] + b.Vel[1]*b.Pos[1])
	}
	return e
}

// Pick selects slices.
func Pick(x, y []float64, c float64) float64 {
	s := x
	if c > 0 {
		s = y
	}
	return s[0]*c + s[1]
}

// GaussSeidel updates its parameter in place, the loads in an inner loop
// and in branches, the stores after it.
func GaussSeidel(x []float64) float64 {
	for sweep := 0; sweep < 2; sweep++ {
		for i := 0; i < len(x); i++ {
			s := 0.0
			for j := 0; j < len(x); j++ {
				v := x[j]
				if j == i {
					continue
				}
				if v > 0 {
					s += v * v * 0.1
				} else {
					s += math.Sin(v) * 0.2
				}
			}
			xi := x[i]
			x[i] = (1 - s) / (4 + xi*xi)
			if xi > 0.5 {
				x[i] *= xi
			}
		}
	}
	return x[0] * x[len(x)-1]
}

func energyOf(bs []Body) float64 {
	e := 0.0
	for _, b := range bs {
		e += b.M * b.Vel[0] * b.Vel[1]
	}
	return e
}

// SwapVel swaps slices between structs of a local slice after a call
// that reads them, and calls again.
func SwapVel(x []float64, m float64) float64 {
	bs := []Body{{Vel: x[:2], M: m}, {Vel: x[2:4], M: m * m}}
	e := energyOf(bs)
	bs[0].Vel, bs[1].Vel = bs[1].Vel, bs[0].Vel
	return e + energyOf(bs)*bs[0].Vel[1]
}

// SwapParam does it in its parameter's memory.
func SwapParam(bs []Body) float64 {
	e := energyOf(bs)
	bs[0].Vel, bs[1].Vel = bs[1].Vel, bs[0].Vel
	return e + energyOf(bs)*bs[0].Vel[1]
}

// Through writes values of its varied x into a parameter that is not
// varied (wrt=x) and reads them back.
func Through(out []float64, x float64) float64 {
	for i := range out {
		out[i] = x * float64(i+1)
	}
	s := 0.0
	for _, v := range out {
		s += v * v
	}
	return s
}

// Counted is a struct of a float and an int.
type Counted struct {
	X float64
	N int
}

// Fields takes a struct of a float and an int.
func Fields(c Counted, y float64) float64 {
	c.X *= y
	return c.X * float64(c.N) * c.X
}

// Assign replaces a slice in its parameter's memory by another parameter
// and writes it.
func Assign(l *Layer, w []float64) float64 {
	old := l.W[0]
	l.W = w
	s := 0.0
	for i := range l.W {
		l.W[i] *= l.W[i] + old
		s += l.W[i]
	}
	return s + w[0]**l.B
}

// Refit replaces a slice of its parameter by one a callee returns.
func Refit(l *Layer, x float64) float64 {
	for range 2 {
		l.W = scaled(l.W, x)
	}
	s := 0.0
	for _, v := range l.W {
		s += v * v * *l.B
	}
	return s
}

func (b *Body) kick(dt float64) {
	b.Vel[0] -= dt * b.Pos[0] * b.Pos[0]
	b.Pos[0] += dt * b.Vel[0] * b.M
}

// Kicks calls a method on each element of a slice of structs, in loops.
func Kicks(bs []Body, dt float64) float64 {
	for range 2 {
		for i := range bs {
			bs[i].kick(dt)
		}
	}
	e := 0.0
	for _, b := range bs {
		e += b.Pos[0]*b.Vel[0] + b.M*b.Pos[1]
	}
	return e
}

// Pool takes maxima of neighbours and indexes by a value computed from
// its input.
func Pool(x []float64) float64 {
	s := 0.0
	m := x[0]
	for i := 0; i+1 < len(x); i++ {
		s += max(x[i], x[i+1]) * x[i]
		m = max(m, x[i+1])
	}
	k := int(math.Abs(x[0])*10) % len(x)
	return s*m + x[k]*x[k]
}
