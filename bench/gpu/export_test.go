package gpubench

import (
	"github.com/gadgen/gadgen/bench/tensormlp"
	T "github.com/gadgen/gadgen/tensorops"
)

func newQuick(dt T.DType) (*tensormlp.MLP, *T.Tensor, *T.Tensor) {
	c := Quick.withDefaults()
	return tensormlp.New(dt, c.In, c.Hidden, c.Out, c.Batch, 1)
}

func zeros(m *tensormlp.MLP) *tensormlp.MLP { return tensormlp.Zeros(m) }
