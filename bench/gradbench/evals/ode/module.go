package ode

import "github.com/gadgen/gadgen/bench/gradbench/protocol"

// Input is the eval's ODEInput (without GradBench's Runs).
type Input struct {
	X []float64 `json:"x"`
	S int       `json:"s"`
}

// Module is the ode module: "primal" is Solve's final state, "gradient"
// the gradient of its last component (Last) with respect to x.
var Module = protocol.Module{
	"primal": protocol.Decoding(func(in *Input) protocol.Prepared {
		y := make([]float64, len(in.X))
		return protocol.Prepared{
			Run:    func() { Solve(y, in.X, in.S) },
			Output: func() any { return y },
		}
	}),
	"gradient": protocol.Decoding(func(in *Input) protocol.Prepared {
		return protocol.Gradient(len(in.X), func(g []float64) { LastGrad(in.X, g, in.S) })
	}),
}
