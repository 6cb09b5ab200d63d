package llsq

import (
	"encoding/json"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Input is the eval's LLSQInput (without GradBench's Runs).
type Input struct {
	X []float64 `json:"x"`
	N int       `json:"n"`
}

// Module is the llsq module: "primal" is Objective, "gradient" its
// gradient with respect to x.
var Module = protocol.Module{
	"primal": func(raw json.RawMessage) (protocol.Prepared, error) {
		var in Input
		if err := protocol.Decode(raw, &in); err != nil {
			return protocol.Prepared{}, err
		}
		var y float64
		return protocol.Prepared{
			Run:    func() { y = Objective(in.X, in.N) },
			Output: func() any { return y },
		}, nil
	},
	"gradient": func(raw json.RawMessage) (protocol.Prepared, error) {
		var in Input
		if err := protocol.Decode(raw, &in); err != nil {
			return protocol.Prepared{}, err
		}
		g := make([]float64, len(in.X))
		return protocol.Prepared{
			Run: func() {
				clear(g)
				ObjectiveGrad(in.X, g, in.N)
			},
			Output: func() any { return g },
		}, nil
	},
}
