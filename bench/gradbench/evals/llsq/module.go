package llsq

import "github.com/gadgen/gadgen/bench/gradbench/protocol"

// Input is the eval's LLSQInput (without GradBench's Runs).
type Input struct {
	X []float64 `json:"x"`
	N int       `json:"n"`
}

// Module is the llsq module: "primal" is Objective, "gradient" its
// gradient with respect to x.
var Module = protocol.Module{
	"primal": protocol.Decoding(func(in *Input) protocol.Prepared {
		return protocol.Value(func() float64 { return Objective(in.X, in.N) })
	}),
	"gradient": protocol.Decoding(func(in *Input) protocol.Prepared {
		return protocol.Gradient(len(in.X), func(g []float64) { ObjectiveGrad(in.X, g, in.N) })
	}),
}
