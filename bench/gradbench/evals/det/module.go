package det

import (
	"encoding/json"
	"fmt"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Input is the det eval's input: A, the ell×ell matrix in row-major order.
type Input struct {
	A   []float64 `json:"A"`
	Ell int       `json:"ell"`
}

// Module is the det module: "primal" is Det, "gradient" its gradient with
// respect to A by DetGrad, in row-major order.
var Module = protocol.Module{
	"primal": func(raw json.RawMessage) (protocol.Prepared, error) {
		in, err := decode(raw)
		if err != nil {
			return protocol.Prepared{}, err
		}
		var det float64
		return protocol.Prepared{
			Run:    func() { det = Det(in.A, in.Ell) },
			Output: func() any { return det },
		}, nil
	},
	"gradient": func(raw json.RawMessage) (protocol.Prepared, error) {
		in, err := decode(raw)
		if err != nil {
			return protocol.Prepared{}, err
		}
		grad := make([]float64, len(in.A))
		return protocol.Prepared{
			Run: func() {
				clear(grad)
				DetGrad(in.A, grad, in.Ell)
			},
			Output: func() any { return grad },
		}, nil
	},
}

func decode(raw json.RawMessage) (Input, error) {
	var in Input
	if err := protocol.Decode(raw, &in); err != nil {
		return in, err
	}
	if in.Ell < 1 || len(in.A) != in.Ell*in.Ell {
		return in, fmt.Errorf("det: A has %d elements, want ell² = %d", len(in.A), in.Ell*in.Ell)
	}
	return in, nil
}
