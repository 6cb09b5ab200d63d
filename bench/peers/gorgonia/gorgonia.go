// Package gorgonia is the Gorgonia contender: the loss built as a Gorgonia
// expression graph, its gradient added to the graph symbolically by
// G.Grad, both compiled once to a tape machine.
//
// The gradient is read from the nodes G.Grad returns, whose values are
// recomputed in every run. A machine made with G.BindDualValues would also
// accumulate the gradient in each parameter's dual value (node.Grad()),
// across runs, until a solver or the caller zeroes it; that is not used
// here.
package gorgonia

import (
	"fmt"

	"github.com/gadgen/gadgen/bench/peers"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Version is the Gorgonia release in go.mod.
const Version = "v0.9.18"

func init() {
	peers.Register("gorgonia", func(d peers.DType) peers.Contender { return &contender{dtype: d} })
}

type contender struct {
	dtype     peers.DType
	lossVM    G.VM
	lossNode  *G.Node // the loss of the forward-only graph
	gradVM    G.VM
	gradLoss  *G.Node // the loss of the graph with gradients
	gradNodes G.Nodes // dW1, db1, dW2, db2, dW3, db3
	lastGrads [peers.NumParams]tensor.Tensor
}

func (c *contender) Name() string { return "Gorgonia " + Version }

// program is one expression graph: the inputs, the loss and, when asked
// for, the gradient nodes.
type program struct {
	g      *G.ExprGraph
	params G.Nodes
	loss   *G.Node
	grads  G.Nodes
}

// value returns v as a tensor of the dtype's type and of the given shape.
func value(d peers.DType, v []float64, shape ...int) tensor.Tensor {
	if d == peers.Float32 {
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(peers.Convert[float32](v)))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(peers.Convert[float64](v)))
}

// build makes the graph of the loss of p, with its gradient when grad is
// set. The biases are matrices [1, n], which BroadcastAdd repeats along
// the batch axis.
func build(d peers.DType, p *peers.Problem, grad bool) (*program, error) {
	dt := tensor.Float64
	if d == peers.Float32 {
		dt = tensor.Float32
	}
	g := G.NewGraph()
	matrix := func(name string, v []float64, rows, cols int) *G.Node {
		return G.NewMatrix(g, dt, G.WithShape(rows, cols), G.WithName(name), G.WithValue(value(d, v, rows, cols)))
	}
	pr := &program{g: g}
	for i, shape := range p.Shapes() {
		rows, cols := 1, shape[0]
		if len(shape) == 2 {
			rows, cols = shape[0], shape[1]
		}
		pr.params = append(pr.params, matrix(peers.ParamNames[i], p.Params[i], rows, cols))
	}
	x := matrix("X", p.X, p.Batch, p.In)
	y := matrix("Y", p.OneHot, p.Batch, p.Out)

	// G.Must panics on a construction error; recover it as an error.
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("gorgonia: building the graph: %v", r)
			}
		}()
		layer := func(h *G.Node, i int) *G.Node {
			return G.Must(G.BroadcastAdd(G.Must(G.Mul(h, pr.params[i])), pr.params[i+1], nil, []byte{0}))
		}
		h1 := G.Must(G.Tanh(layer(x, 0)))
		h2 := G.Must(G.Tanh(layer(h1, 2)))
		z := layer(h2, 4)
		logp := G.Must(G.LogSoftMax(z, 1))
		// Mean over the batch of −Σ_k Y_bk·log_softmax(z)_bk.
		pr.loss = G.Must(G.Neg(G.Must(G.Mean(G.Must(G.Sum(G.Must(G.HadamardProd(y, logp)), 1))))))
	}()
	if err != nil {
		return nil, err
	}
	if grad {
		if pr.grads, err = G.Grad(pr.loss, pr.params...); err != nil {
			return nil, fmt.Errorf("gorgonia: G.Grad: %w", err)
		}
	}
	return pr, nil
}

func (c *contender) Setup(p *peers.Problem) error {
	fwd, err := build(c.dtype, p, false)
	if err != nil {
		return err
	}
	bwd, err := build(c.dtype, p, true)
	if err != nil {
		return err
	}
	c.lossVM, c.lossNode = G.NewTapeMachine(fwd.g), fwd.loss
	c.gradVM, c.gradLoss, c.gradNodes = G.NewTapeMachine(bwd.g), bwd.loss, bwd.grads
	return nil
}

// run executes the tape once and rewinds it.
func run(vm G.VM, loss *G.Node) float64 {
	if err := vm.RunAll(); err != nil {
		panic(err)
	}
	defer vm.Reset()
	switch v := loss.Value().Data().(type) {
	case float64:
		return v
	case float32:
		return float64(v)
	default:
		panic(fmt.Sprintf("gorgonia: loss of type %T", v))
	}
}

func (c *contender) Loss() float64 { return run(c.lossVM, c.lossNode) }

func (c *contender) Grad() float64 {
	loss := run(c.gradVM, c.gradLoss)
	for i, n := range c.gradNodes {
		c.lastGrads[i] = n.Value().(tensor.Tensor)
	}
	return loss
}

func (c *contender) Gradient() peers.Grads {
	var g peers.Grads
	for i, t := range c.lastGrads {
		switch v := t.Data().(type) {
		case []float64:
			g[i] = peers.ToFloat64(v)
		case []float32:
			g[i] = peers.ToFloat64(v)
		default:
			panic(fmt.Sprintf("gorgonia: gradient of type %T", v))
		}
	}
	return g
}
