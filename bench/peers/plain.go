package peers

import "math"

// PlainKey is the registry key of the plain-Go reference.
const PlainKey = "plain"

func init() {
	Register(PlainKey, func(d DType) Contender {
		if d == Float32 {
			return new(Plain[float32])
		}
		return new(Plain[float64])
	})
}

// Plain is the reference: the forward pass and hand-written
// backpropagation in simple loops over slices, computing in T. Its float64
// instance is what every contender is compared against. Scratch memory is
// allocated once, in Setup.
type Plain[T Float] struct {
	s      Sizes
	params [NumParams][]T
	x      []T
	labels []int

	h1, h2, z    []T // activations, [Batch×width]
	dz, dh1, dh2 []T // adjoints of z and of the hidden activations
	grads        [NumParams][]T
}

// Name implements Contender.
func (c *Plain[T]) Name() string {
	var t T
	if any(t) == any(float32(0)) {
		return "plain Go loops (float32)"
	}
	return "plain Go loops (reference)"
}

// Setup implements Contender.
func (c *Plain[T]) Setup(p *Problem) error {
	s := p.Sizes
	c.s = s
	for i, v := range p.Params {
		c.params[i] = Convert[T](v)
		c.grads[i] = make([]T, len(v))
	}
	c.x = Convert[T](p.X)
	c.labels = p.Labels
	c.h1 = make([]T, s.Batch*s.H1)
	c.h2 = make([]T, s.Batch*s.H2)
	c.z = make([]T, s.Batch*s.Out)
	c.dz = make([]T, s.Batch*s.Out)
	c.dh1 = make([]T, s.Batch*s.H1)
	c.dh2 = make([]T, s.Batch*s.H2)
	return nil
}

// affine sets out = in·w + b for rows of in ([rows×nIn]), w [nIn×nOut].
func affine[T Float](out, in, w, b []T, nIn, nOut int) {
	rows := len(in) / nIn
	for r := range rows {
		o := out[r*nOut : (r+1)*nOut]
		copy(o, b)
		for i, xi := range in[r*nIn : (r+1)*nIn] {
			for j, wij := range w[i*nOut : (i+1)*nOut] {
				o[j] += xi * wij
			}
		}
	}
}

func tanhAll[T Float](v []T) {
	for i, x := range v {
		v[i] = T(math.Tanh(float64(x)))
	}
}

// forward computes h1, h2 and z and returns the loss; when grad is set it
// also leaves in dz the adjoint of z, (softmax(z) − Y)/Batch.
func (c *Plain[T]) forward(grad bool) float64 {
	s := c.s
	affine(c.h1, c.x, c.params[0], c.params[1], s.In, s.H1)
	tanhAll(c.h1)
	affine(c.h2, c.h1, c.params[2], c.params[3], s.H1, s.H2)
	tanhAll(c.h2)
	affine(c.z, c.h2, c.params[4], c.params[5], s.H2, s.Out)
	inv := 1 / T(s.Batch)
	var total T
	for b, label := range c.labels {
		z := c.z[b*s.Out : (b+1)*s.Out]
		zmax := z[0]
		for _, v := range z[1:] {
			zmax = max(zmax, v)
		}
		var sum T
		for _, v := range z {
			sum += T(math.Exp(float64(v - zmax)))
		}
		total += zmax + T(math.Log(float64(sum))) - z[label]
		if grad {
			dz := c.dz[b*s.Out : (b+1)*s.Out]
			for k, v := range z {
				dz[k] = T(math.Exp(float64(v-zmax))) / sum * inv
			}
			dz[label] -= inv
		}
	}
	return float64(total * inv)
}

// Loss implements Contender.
func (c *Plain[T]) Loss() float64 { return c.forward(false) }

// backAffine is the adjoint of out = in·w + b: given dout, it sets dw and
// db and, when din is not nil, sets din = dout·wᵀ.
func backAffine[T Float](din, dw, db, dout, in, w []T, nIn, nOut int) {
	rows := len(in) / nIn
	clear(dw)
	clear(db)
	for r := range rows {
		d := dout[r*nOut : (r+1)*nOut]
		for j, v := range d {
			db[j] += v
		}
		for i, xi := range in[r*nIn : (r+1)*nIn] {
			row := dw[i*nOut : (i+1)*nOut]
			for j, v := range d {
				row[j] += xi * v
			}
		}
		if din != nil {
			di := din[r*nIn : (r+1)*nIn]
			for i := range di {
				var a T
				for j, wij := range w[i*nOut : (i+1)*nOut] {
					a += wij * d[j]
				}
				di[i] = a
			}
		}
	}
}

// Grad implements Contender.
func (c *Plain[T]) Grad() float64 {
	s := c.s
	loss := c.forward(true)
	g := &c.grads
	backAffine(c.dh2, g[4], g[5], c.dz, c.h2, c.params[4], s.H2, s.Out)
	for i, h := range c.h2 { // through tanh: dpre = dh·(1 − h²)
		c.dh2[i] *= 1 - h*h
	}
	backAffine(c.dh1, g[2], g[3], c.dh2, c.h1, c.params[2], s.H1, s.H2)
	for i, h := range c.h1 {
		c.dh1[i] *= 1 - h*h
	}
	backAffine(nil, g[0], g[1], c.dh1, c.x, c.params[0], s.In, s.H1)
	return loss
}

// Gradient implements Contender.
func (c *Plain[T]) Gradient() Grads {
	var out Grads
	for i, g := range c.grads {
		out[i] = ToFloat64(g)
	}
	return out
}

// Reference returns the loss and the gradient of p computed by the float64
// plain-Go reference.
func Reference(p *Problem) (float64, Grads) {
	var c Plain[float64]
	if err := c.Setup(p); err != nil {
		panic(err)
	}
	loss := c.Grad()
	return loss, c.Gradient()
}
