package particle

import (
	"github.com/gadgen/gadgen/bench/gradbench/evals/descent"
	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Input is the particle eval's input: the control w to start from.
type Input struct {
	W float64 `json:"w"`
}

// Variants are the four variants by name, outer mode then inner mode (f
// forward, r reverse): the objective the descent minimizes and its
// derivative, by gadgen, with respect to w.
var Variants = map[string]struct {
	Objective  func(w float64) float64
	Derivative func(w float64) float64
}{
	"rr": {CrossingR, func(w float64) float64 { _, d := CrossingRGrad(w); return d }},
	"rf": {CrossingF, func(w float64) float64 { _, d := CrossingFGrad(w); return d }},
	"fr": {CrossingR, func(w float64) float64 { _, d := CrossingRJVP(w, 1); return d }},
	"ff": {CrossingF, func(w float64) float64 { _, d := CrossingFJVP(w, 1); return d }},
}

// Module is the particle module: each variant returns the w that gradient
// descent from the input's w reaches.
var Module = protocol.Module{}

func init() {
	for name, v := range Variants {
		Module[name] = protocol.Decoding(func(in *Input) protocol.Prepared {
			return protocol.Value(func() float64 { return Solve(v.Objective, v.Derivative, in.W) })
		})
	}
}

// Solve returns the w that gradient descent from w0 reaches on objective,
// derivative its derivative.
func Solve(objective, derivative func(w float64) float64, w0 float64) float64 {
	return descent.Argmin(func(w []float64) float64 { return objective(w[0]) },
		func(g, w []float64) { g[0] = derivative(w[0]) }, []float64{w0})[0]
}
