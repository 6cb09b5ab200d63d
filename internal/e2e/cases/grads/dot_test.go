package grads

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks the gradients that test= cannot cover (their
// functions may write a slice parameter, as far as gadgen can tell)
// against their JVPs and central differences.
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Layers", F: Layers, JVP: LayersJVP, Grad: LayersGrad, Len: 6},
	})
}
