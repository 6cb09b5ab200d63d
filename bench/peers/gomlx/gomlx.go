// Package gomlx is the GoMLX contender: the loss written with GoMLX's graph
// package, its gradient from graph.Gradient, both compiled once and
// executed by the pure-Go backend (simplego, GOMLX_BACKEND=go).
package gomlx

import (
	"fmt"
	"os"
	"sync"

	"github.com/gadgen/gadgen/bench/peers"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// Version is the GoMLX release in go.mod.
const Version = "v0.26.0"

func init() {
	peers.Register("gomlx", func(d peers.DType) peers.Contender {
		return &contender{dtype: d, matmul: graph.Dot}
	})
	peers.Register("gomlx-einsum", func(d peers.DType) peers.Contender {
		return &contender{dtype: d, matmul: einsum, variant: ", Einsum"}
	})
}

// einsum is the product of two matrices written as graph.Einsum, which
// builds a DotGeneral node: its gradient is built differently from that of
// graph.Dot (which layers.Dense uses on 2-D inputs, and the "gomlx"
// contender here).
func einsum(a, b *graph.Node) *graph.Node { return graph.Einsum("ij,jk->ik", a, b) }

// Config is the simplego configuration: one worker, and the ops of a graph
// executed one after the other.
const Config = "parallelism=1,ops_sequential"

// backend is created once: simplego's New announces the parallelism on
// standard output, which would land in the middle of the tables, so it is
// sent to /dev/null while New runs.
var backend = sync.OnceValues(func() (backends.Backend, error) {
	stdout := os.Stdout
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stdout = null
		defer func() { os.Stdout = stdout; null.Close() }()
	}
	return simplego.New(Config)
})

type contender struct {
	dtype   peers.DType
	matmul  func(a, b *graph.Node) *graph.Node // product of two matrices
	variant string                             // for Name
	loss    *graph.Exec                        // inputs (W1, b1, W2, b2, W3, b3, X, Y) → loss
	grad    *graph.Exec                        // the same inputs → loss, dW1, db1, dW2, db2, dW3, db3
	inputs  []any                              // *tensors.Tensor, in the order above
	outputs []*tensors.Tensor
}

func (c *contender) Name() string { return "GoMLX " + Version + " (simplego" + c.variant + ")" }

// lossGraph builds the loss from the inputs (W1, b1, W2, b2, W3, b3, X, Y).
func (c *contender) lossGraph(in []*graph.Node) *graph.Node {
	x, y := in[6], in[7]
	layer := func(h, w, b *graph.Node) *graph.Node {
		// b is [n]; broadcast it as [1, n] against [batch, n].
		return graph.Add(c.matmul(h, w), graph.InsertAxes(b, 0))
	}
	h1 := graph.Tanh(layer(x, in[0], in[1]))
	h2 := graph.Tanh(layer(h1, in[2], in[3]))
	z := layer(h2, in[4], in[5])
	// Mean over the batch of −Σ_k Y_bk·log_softmax(z)_bk.
	return graph.Neg(graph.ReduceAllMean(graph.ReduceSum(graph.Mul(y, graph.LogSoftmax(z, -1)), -1)))
}

func (c *contender) gradGraph(in []*graph.Node) []*graph.Node {
	loss := c.lossGraph(in)
	return append([]*graph.Node{loss}, graph.Gradient(loss, in[:peers.NumParams]...)...)
}

func newTensor[T float32 | float64](v []float64, dims ...int) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(peers.Convert[T](v), dims...)
}

func (c *contender) Setup(p *peers.Problem) error {
	b, err := backend()
	if err != nil {
		return fmt.Errorf("gomlx: simplego backend: %w", err)
	}
	conv := newTensor[float64]
	if c.dtype == peers.Float32 {
		conv = newTensor[float32]
	}
	c.inputs = c.inputs[:0]
	for i, shape := range p.Shapes() {
		c.inputs = append(c.inputs, conv(p.Params[i], shape...))
	}
	c.inputs = append(c.inputs, conv(p.X, p.Batch, p.In), conv(p.OneHot, p.Batch, p.Out))
	if c.loss, err = graph.NewExec(b, c.lossGraph); err != nil {
		return err
	}
	if c.grad, err = graph.NewExec(b, c.gradGraph); err != nil {
		return err
	}
	if err := c.loss.PreCompile(c.inputs...); err != nil {
		return err
	}
	return c.grad.PreCompile(c.inputs...)
}

// run executes e, frees the outputs of the previous call (their buffers go
// back to simplego's pool) and returns the loss.
func (c *contender) run(e *graph.Exec) float64 {
	out, err := e.Exec(c.inputs...)
	if err != nil {
		panic(err)
	}
	for _, t := range c.outputs {
		t.MustFinalizeAll()
	}
	c.outputs = out
	switch v := out[0].Value().(type) {
	case float64:
		return v
	case float32:
		return float64(v)
	default:
		panic(fmt.Sprintf("gomlx: loss of type %T", v))
	}
}

func (c *contender) Loss() float64 { return c.run(c.loss) }
func (c *contender) Grad() float64 { return c.run(c.grad) }

func (c *contender) Gradient() peers.Grads {
	var g peers.Grads
	for i := range g {
		t := c.outputs[1+i]
		var err error
		if c.dtype == peers.Float32 {
			var v []float32
			v, err = tensors.CopyFlatData[float32](t)
			g[i] = peers.ToFloat64(v)
		} else {
			g[i], err = tensors.CopyFlatData[float64](t)
		}
		if err != nil {
			panic(err)
		}
	}
	return g
}
