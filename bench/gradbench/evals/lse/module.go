package lse

import "github.com/gadgen/gadgen/bench/gradbench/protocol"

// Input is the eval's LogSumExpInput (without GradBench's Runs).
type Input struct {
	X []float64 `json:"x"`
}

// Module is the lse module: "primal" is LogSumExp, "gradient" its
// gradient.
var Module = protocol.Module{
	"primal": protocol.Decoding(func(in *Input) protocol.Prepared {
		return protocol.Value(func() float64 { return LogSumExp(in.X) })
	}),
	"gradient": protocol.Decoding(func(in *Input) protocol.Prepared {
		return protocol.Gradient(len(in.X), func(g []float64) { LogSumExpGrad(in.X, g) })
	}),
}
