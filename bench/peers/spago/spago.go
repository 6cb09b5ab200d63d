// Package spago is the spago contender: the loss written with spago's ag
// operators, recorded as it runs (define-by-run: the graph is rebuilt in
// every call) and differentiated by ag.Backward.
package spago

import (
	"fmt"

	"github.com/gadgen/gadgen/bench/peers"
	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
	"github.com/nlpodyssey/spago/mat/float"
)

// Version is the spago release in go.mod.
const Version = "v1.1.0"

func init() {
	peers.Register("spago", func(d peers.DType) peers.Contender {
		if d == peers.Float32 {
			return new(contender[float32])
		}
		return new(contender[float64])
	})
}

// contender holds the parameters as spago matrices that require gradients.
// spago's tensors are at most 2-D and its operators do not broadcast, so
// the biases are matrices [1, n] repeated along the batch by a product with
// a column of ones [batch, 1], and the row sums of the softmax are a
// product with a column of ones [out, 1].
type contender[T float32 | float64] struct {
	s        peers.Sizes
	params   [peers.NumParams]*mat.Dense[T]
	x, y     *mat.Dense[T] // inputs [batch, in], one-hot labels [batch, out]
	onesB    *mat.Dense[T] // [batch, 1]
	onesOut  *mat.Dense[T] // [out, 1]
	invBatch *mat.Dense[T] // the scalar 1/batch
}

func (c *contender[T]) Name() string { return "spago " + Version }

func dense[T float32 | float64](v []float64, rows, cols int, grad bool) *mat.Dense[T] {
	return mat.NewDense[T](mat.WithShape(rows, cols), mat.WithBacking(peers.Convert[T](v)), mat.WithGrad(grad))
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func (c *contender[T]) Setup(p *peers.Problem) error {
	// Operators run in the calling goroutine, not each in its own.
	ag.SetForceSyncExecution(true)
	c.s = p.Sizes
	for i, shape := range p.Shapes() {
		rows, cols := 1, shape[0]
		if len(shape) == 2 {
			rows, cols = shape[0], shape[1]
		}
		c.params[i] = dense[T](p.Params[i], rows, cols, true)
	}
	c.x = dense[T](p.X, p.Batch, p.In, false)
	c.y = dense[T](p.OneHot, p.Batch, p.Out, false)
	c.onesB = dense[T](ones(p.Batch), p.Batch, 1, false)
	c.onesOut = dense[T](ones(p.Out), p.Out, 1, false)
	c.invBatch = mat.Scalar(T(1) / T(p.Batch))
	return nil
}

// loss records the graph of the loss and returns its node:
//
//	s = z − max(z)  (one shift for the whole batch, outside the gradient)
//	L = Σ_b (log Σ_k exp(s_bk) − Σ_k Y_bk·s_bk) / batch,
//
// which equals the mean cross-entropy since each row of Y sums to one.
func (c *contender[T]) loss() mat.Tensor {
	layer := func(h mat.Tensor, i int) mat.Tensor {
		return ag.Add(ag.Mul(h, c.params[i]), ag.Mul(c.onesB, c.params[i+1]))
	}
	h1 := ag.Tanh(layer(c.x, 0))
	h2 := ag.Tanh(layer(h1, 2))
	z := layer(h2, 4)
	s := ag.SubScalar(z, ag.StopGrad(ag.ReduceMax(ag.Flatten(z))))
	rowSum := func(m mat.Tensor) mat.Tensor { return ag.Mul(m, c.onesOut) } // [batch, 1]
	// ReduceSum's gradient is a column [n, 1] whatever the shape of its
	// operand, so it is applied to columns only.
	nll := ag.Sub(ag.Log(rowSum(ag.Exp(s))), rowSum(ag.Prod(c.y, s)))
	return ag.ProdScalar(ag.ReduceSum(nll), c.invBatch)
}

func (c *contender[T]) Loss() float64 { return c.loss().Value().Item().F64() }

func (c *contender[T]) Grad() float64 {
	for _, p := range c.params {
		p.ZeroGrad() // gradients accumulate across calls otherwise
	}
	loss := c.loss()
	if err := ag.Backward(loss); err != nil {
		panic(fmt.Sprintf("spago: backward: %v", err))
	}
	return loss.Value().Item().F64()
}

func (c *contender[T]) Gradient() peers.Grads {
	var g peers.Grads
	for i, p := range c.params {
		grad := p.Grad()
		if grad == nil {
			panic("spago: no gradient for " + peers.ParamNames[i])
		}
		g[i] = peers.ToFloat64(float.SliceValueOf[T](grad.(*mat.Dense[T]).Data()))
	}
	return g
}
