package saddle

import (
	"encoding/json"
	"fmt"

	"github.com/gadgen/gadgen/bench/gradbench/evals/descent"
	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Input is the saddle eval's input: the start of every descent.
type Input struct {
	Start []float64 `json:"start"`
}

// A Variant is one of the four: the maximum over q that the descent over p
// minimizes, its gradient with respect to p by the outer mode (which
// differentiates the inner descent and the inner gradient), and the
// gradient of f with respect to q by the outer mode, for the last
// maximization.
type Variant struct {
	Max     func(p, start []float64) float64
	MaxGrad func(g, p, start []float64)
	Grad    func(p, q, g []float64)
}

// Variants are the four variants by name, outer mode then inner mode (f
// forward, r reverse).
var Variants = map[string]Variant{
	"rr": {MaxR, reverse(MaxRGrad), gradR},
	"rf": {MaxF, reverse(MaxFGrad), gradR},
	"fr": {MaxR, forward(MaxRJVP), gradF},
	"ff": {MaxF, forward(MaxFJVP), gradF},
}

// reverse returns the gradient of a maximum by its generated gradient.
func reverse(grad func(p, pBar, start []float64) float64) func(g, p, start []float64) {
	return func(g, p, start []float64) {
		clear(g)
		grad(p, g, start)
	}
}

// forward returns the gradient of a maximum by its generated JVP, one
// direction at a time.
func forward(jvp func(p, dp, start []float64) (float64, float64)) func(g, p, start []float64) {
	return func(g, p, start []float64) {
		dp := make([]float64, len(p))
		for i := range g {
			dp[i] = 1
			_, g[i] = jvp(p, dp, start)
			dp[i] = 0
		}
	}
}

// Solve returns the saddle point from start by variant v: p, the argmin of
// the maximum over q, then q, the argmax of f(p, ·).
func Solve(v Variant, start []float64) (p, q []float64) {
	p = descent.Argmin(func(p []float64) float64 { return v.Max(p, start) },
		func(g, p []float64) { v.MaxGrad(g, p, start) }, start)
	q = descent.Argmax(func(q []float64) float64 { return f(p, q) },
		func(g, q []float64) { v.Grad(p, q, g) }, start)
	return p, q
}

// Module is the saddle module: each variant returns p and q, one after the
// other.
var Module = protocol.Module{}

func init() {
	for name, v := range Variants {
		Module[name] = func(raw json.RawMessage) (protocol.Prepared, error) {
			var in Input
			if err := protocol.Decode(raw, &in); err != nil {
				return protocol.Prepared{}, err
			}
			if len(in.Start) != 2 {
				return protocol.Prepared{}, fmt.Errorf("saddle: start has %d numbers, want 2", len(in.Start))
			}
			var p, q []float64
			return protocol.Prepared{
				Run:    func() { p, q = Solve(v, in.Start) },
				Output: func() any { return append(append([]float64{}, p...), q...) },
			}, nil
		}
	}
}
