package lstm

import "github.com/gadgen/gadgen/bench/gradbench/protocol"

// Input is the eval's LSTMInput (without GradBench's Runs), in rows.
type Input struct {
	MainParams  [][]float64 `json:"main_params"`
	ExtraParams [][]float64 `json:"extra_params"`
	State       [][]float64 `json:"state"`
	Sequence    [][]float64 `json:"sequence"`
}

// Module is the lstm module: "objective" is Objective, "jacobian" its
// gradient with respect to main_params then extra_params, flattened
// row by row.
var Module = protocol.Module{
	"objective": protocol.Decoding(func(in *Input) protocol.Prepared {
		main, extra, state, seq := protocol.Flat(in.MainParams), protocol.Flat(in.ExtraParams), protocol.Flat(in.State), protocol.Flat(in.Sequence)
		return protocol.Value(func() float64 { return Objective(main, extra, state, seq) })
	}),
	"jacobian": protocol.Decoding(func(in *Input) protocol.Prepared {
		main, extra, state, seq := protocol.Flat(in.MainParams), protocol.Flat(in.ExtraParams), protocol.Flat(in.State), protocol.Flat(in.Sequence)
		return protocol.Gradient(len(main)+len(extra), func(g []float64) {
			ObjectiveGrad(main, g[:len(main)], extra, g[len(main):], state, seq)
		})
	}),
}
