// Package tensorcalls is an end-to-end case of the calls people write in
// tensor models, each once a wrong derivative or a panic: variadic calls
// of tensorops.Concat with a slice passed with "..." (a slice literal, a
// slice built by append in a loop as a multi-head block joins its heads,
// a slice a helper returns, a slice grown by one more tensor), the same
// calls with the tensors listed, a variadic helper of one's own called
// both ways, sums started from the nil tensor, and structs of tensors
// whose tangent or gradient has nil fields. Every function is
// differentiated in forward, reverse and Taylor mode, and the
// second-order helpers where they apply.
package tensorcalls

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

// T is the tensor type.
type T = tensorops.Tensor

// Spread concatenates a slice literal passed with "...".
//
//gad:jvp
//gad:grad
//gad:taylor order=3
//gad:hvp
func Spread(x *T) float64 {
	parts := []*T{x, tensorops.Square(x)}
	return tensorops.SumAll(tensorops.Tanh(tensorops.Concat(0, parts...)))
}

// Listed is Spread with the tensors listed.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
func Listed(x *T) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.Concat(0, x, tensorops.Square(x))))
}

// Heads splits the columns of x into three heads of two, applies a
// nonlinearity to each, and joins them as a multi-head block does: a
// slice built by append in a loop.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
//gad:hvp
//gad:hessian
//gad:hessdiag
//gad:laplacian
func Heads(x *T) float64 {
	var heads []*T
	for h := range 3 {
		xh := tensorops.Slice(x, 1, 2*h, 2*h+2)
		heads = append(heads, tensorops.Tanh(tensorops.Scale(xh, float64(h+1))))
	}
	y := tensorops.Concat(1, heads...)
	return tensorops.SumAll(tensorops.Mul(y, x))
}

// split returns the rows of x, one tensor each.
func split(x *T) []*T {
	var rows []*T
	for i := range x.Dim(0) {
		rows = append(rows, tensorops.Slice(x, 0, i, i+1))
	}
	return rows
}

// Rejoin concatenates, along the columns, the rows a helper split off and
// one tensor more appended to them.
//
//gad:jvp
//gad:grad
//gad:taylor order=2
func Rejoin(x, w *T) float64 {
	rows := append(split(x), w)
	return tensorops.SumAll(tensorops.Exp(tensorops.Concat(1, rows...)))
}

// sum adds up its arguments, a variadic helper of one's own.
func sum(ts ...*T) *T {
	var s *T
	for _, t := range ts {
		s = tensorops.Add(s, t)
	}
	return s
}

// Sums calls sum with its arguments listed and with a slice.
//
//gad:jvp
//gad:grad
//gad:taylor order=2
func Sums(x, y *T) float64 {
	a := sum(x, tensorops.Mul(x, y))
	b := sum([]*T{tensorops.Tanh(y), a}...)
	return tensorops.SumAll(tensorops.Mul(a, b))
}

// Accumulate sums tensors from an accumulator that starts as the nil
// tensor (the zero tensor of any shape).
//
//gad:jvp
//gad:grad
//gad:taylor order=3
//gad:hvp
func Accumulate(x *T) float64 {
	var acc *T
	for k := range 3 {
		acc = tensorops.Add(acc, tensorops.Scale(tensorops.Sin(x), float64(k+1)))
	}
	var sq *T
	for range 2 {
		sq = tensorops.Add(sq, tensorops.Mul(acc, acc))
	}
	return tensorops.SumAll(sq)
}

// Conv is a convolutional layer.
type Conv struct {
	K, B *T
}

// ConvLoss is the mean of the squared activations of the layer on x.
//
//gad:jvp
//gad:grad
//gad:taylor order=2
func ConvLoss(c Conv, x *T) float64 {
	y := tensorops.Tanh(tensorops.Add(tensorops.Conv2D(x, c.K, 1, 1), c.B))
	return tensorops.MeanAll(tensorops.Square(y))
}

// ConvPtrLoss is ConvLoss with the layer by pointer.
//
//gad:jvp
//gad:grad
func ConvPtrLoss(c *Conv, x *T) float64 {
	return ConvLoss(*c, x)
}

// Fit is a least-squares problem on flat parameters, for gonum's
// optimizers: the parameters are viewed as a tensor.
type Fit struct {
	A, Y *T
}

// Func is the sum of squared residuals of A·w − Y, w the 3×1 view of x.
//
//gad:grad gonum=true
//gad:jvp
//gad:taylor order=2
func (p *Fit) Func(x []float64) float64 {
	w := tensorops.FromFloat64s(x, 3, 1)
	r := tensorops.Sub(tensorops.MatMul(p.A, w), p.Y)
	return tensorops.SumAll(tensorops.Square(r))
}

// Reads reads elements of tensors as floats: the only element of a sum
// and single elements, in a loop over a row.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
//gad:hvp
func Reads(x *T) float64 {
	s := tensorops.SumAll(tensorops.Exp(x)) // a float
	m := tensorops.Sum(tensorops.Sum(tensorops.Tanh(x), 0), 0).Item()
	for j := range x.Dim(1) {
		s += x.At(0, j) * x.At(1, j)
	}
	return s * m
}

// Fit32 is Fit on float32 data and parameters.
type Fit32 struct {
	A, Y *T
}

// Func is the sum of squared residuals of A·w − Y, w the 3×1 view of x.
//
//gad:grad
//gad:jvp
//gad:taylor order=2
func (p *Fit32) Func(x []float32) float64 {
	w := tensorops.FromFloat32s(x, 3, 1)
	r := tensorops.Sub(tensorops.MatMul(p.A, w), p.Y)
	return tensorops.SumAll(tensorops.Square(r))
}

// Stack is a model of layers that holds only slices of tensors, passed by
// value to a helper (once a zero gradient: the helper's parameter was
// taken for one without floats).
type Stack struct {
	Ws []*T
}

// apply runs the layers of s on x.
func apply(s Stack, x *T) *T {
	for _, w := range s.Ws {
		x = tensorops.Tanh(tensorops.MatMul(x, w))
	}
	return x
}

// StackLoss is the squared norm of the stack's output on x.
//
//gad:grad wrt=s
//gad:jvp wrt=s
func StackLoss(s Stack, x *T) float64 {
	return tensorops.SumAll(tensorops.Square(apply(s, x)))
}

// StackPtrLoss is StackLoss with the stack by pointer.
//
//gad:grad wrt=s
func StackPtrLoss(s *Stack, x *T) float64 {
	return StackLoss(*s, x)
}

// Lin is a model by value in which a loss is linear: its HVP is zero
// (whose generated code once assigned a shadow's field to itself, which
// go vet rejects).
type Lin struct {
	W, V *T
}

// pair is a state stepped by a method of a value receiver that returns it.
type pair struct {
	H, Sum *T
}

func (p pair) next(x *T) pair { return p }

// LinearLoss is ⟨x, W⟩, through a state whose Sum stays nil.
//
//gad:hvp wrt=m
func LinearLoss(m Lin, x *T) float64 {
	p := pair{H: x}
	p = p.next(m.V)
	return tensorops.SumAll(tensorops.Mul(x, m.W)) + tensorops.SumAll(tensorops.Add(p.Sum, p.H))
}

// Deep is a model by value whose address the loss passes to a helper
// (go/ssa keeps such a parameter in a copy: once taken for a write
// through m, which refused the helpers that evaluate F several times).
type Deep struct {
	Ws []*T
	W  *T
}

// run applies the layers of *m to x.
func run(m *Deep, x *T) *T {
	for _, w := range m.Ws {
		x = tensorops.Tanh(tensorops.MatMul(x, w))
	}
	return x
}

// AddrLoss is the mean of the output layer on the layers' result.
//
//gad:grad wrt=m
//gad:hessdiag wrt=m
//gad:laplacian wrt=m
func AddrLoss(m Deep, x *T) float64 {
	return tensorops.MeanAll(tensorops.Tanh(tensorops.MatMul(run(&m, x), m.W)))
}

// SpreadOne is the program of the report that found the spread call's
// zero derivative: the tangent was 0 (want 2 along ones of two elements)
// and the gradient nil (want [1 1]).
//
//gad:jvp
//gad:grad
//gad:taylor order=2
//gad:hvp
func SpreadOne(x *T) float64 {
	parts := []*T{x}
	return tensorops.SumAll(tensorops.Concat(0, parts...))
}

// Flow is a state of tensors that a method steps in place, replacing them
// (a neural ODE's explicit steps).
type Flow struct{ X, V *T }

func (s *Flow) step(w *T, dt float64) {
	a := tensorops.Tanh(tensorops.MatMul(s.X, w))
	s.V = tensorops.Add(s.V, tensorops.Scale(a, dt))
	s.X = tensorops.Add(s.X, tensorops.Scale(s.V, dt))
}

// Integrate steps a Flow from x at rest four times with weights w.
//
//gad:jvp
//gad:grad
func Integrate(x, w *T) float64 {
	s := &Flow{X: x}
	for range 4 {
		s.step(w, 0.1)
	}
	return tensorops.SumAll(tensorops.Mul(s.X, s.X))
}

// Net keeps the activations of its last forward pass.
type Net struct {
	W1, W2 *T
	Acts   []*T
}

// forward runs the net on x and keeps its activations in the net.
func (n *Net) forward(x *T) {
	h := tensorops.Tanh(tensorops.MatMul(x, n.W1))
	n.Acts = []*T{h, tensorops.MatMul(h, n.W2)}
}

// Kept is a loss that reads the activations a helper keeps in the model.
//
//gad:jvp
//gad:grad
func Kept(x, w1, w2 *T) float64 {
	n := &Net{W1: w1, W2: w2}
	n.forward(x)
	return tensorops.SumAll(tensorops.Square(n.Acts[1])) + 0.1*tensorops.SumAll(n.Acts[0])
}

// states returns the hidden states of a recurrent cell over the rows of
// xs, from h0.
func states(h0, w, u *T, xs []*T) []*T {
	hs := make([]*T, 0, len(xs))
	h := h0
	for _, x := range xs {
		h = tensorops.Tanh(tensorops.Add(tensorops.MatMul(h, w), tensorops.MatMul(x, u)))
		hs = append(hs, h)
	}
	return hs
}

// Recurrent sums the squares of the hidden states a helper returns.
//
//gad:jvp
//gad:grad
func Recurrent(h0, w, u, x *T) float64 {
	xs := []*T{x, tensorops.Scale(x, 0.5), tensorops.Sin(x)}
	s := 0.0
	for _, h := range states(h0, w, u, xs) {
		s += tensorops.SumAll(tensorops.Square(h))
	}
	return s
}
