package userrules

import (
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// The example arguments of the tests that test= asks gadgen to write
// (userrules_grad_test.go): one result per parameter, receiver first.

func lossInputs(r *rand.Rand) (m *Model, x, y *T) { return newModel(r, tensorops.Float64) }

func energyInputs(r *rand.Rand) *T { return tensorops.RandN(r, tensorops.Float32, 2, 3) }

func activateInputs(r *rand.Rand) (*T, float64) {
	return tensorops.Scale(tensorops.RandN(r, tensorops.Float64, 3, 2), 0.5), 0.5 + r.Float64()
}

func denseInputs(r *rand.Rand) (Layer, *T) {
	l := Layer{W: tensorops.Scale(tensorops.RandN(r, tensorops.Float64, 3, 4), 0.5), B: tensorops.RandN(r, tensorops.Float64, 4)}
	return l, tensorops.RandN(r, tensorops.Float64, 5, 3)
}

func scoreInputs(r *rand.Rand) (Net, *T) {
	n := Net{Scale: 1.5}
	for range 2 {
		n.Ws = append(n.Ws, tensorops.Scale(tensorops.RandN(r, tensorops.Float64, 3, 3), 0.6))
	}
	return n, tensorops.RandN(r, tensorops.Float64, 4, 3)
}

func geluInputs(r *rand.Rand) *T { return tensorops.RandN(r, tensorops.Float32, 3, 2) }

func scaledExpInputs(r *rand.Rand) (*T, float64, int) {
	return tensorops.Scale(tensorops.RandN(r, tensorops.Float64, 2, 2), 0.5), 0.5 + r.Float64(), 2
}

// lseInputs is one fixed point.
func lseInputs() *T { return tensorops.FromFloat64s([]float64{0.5, -1, 2, 0.25}, 2, 2) }
