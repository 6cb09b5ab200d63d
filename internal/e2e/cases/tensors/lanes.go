package tensors

import "github.com/gadgen/gadgen/tensorops"

// Derivatives along several directions per call (lanes=L): the HVPs of
// Quad along 3 directions, its jets of degree 3 along 2, and the HVPs and
// Hessian of a perceptron whose layers go through a helper of the user's,
// whose vector JVP the gradient's then calls.
//
//gad:hvp QuadHVP3 github.com/gadgen/gadgen/internal/e2e/cases/tensors.Quad lanes=3
//gad:taylor QuadTaylor2 github.com/gadgen/gadgen/internal/e2e/cases/tensors.Quad order=3 lanes=2
//gad:taylor QuadTaylorLine2 github.com/gadgen/gadgen/internal/e2e/cases/tensors.Quad order=2 seed=line lanes=2

// The same with the directions stacked in one tensor [L, …] (any L): the
// HVPs of Quad and of the perceptron, and jets whose float coefficients
// come back as tensors [L].
//
//gad:hvp QuadHVPStacked github.com/gadgen/gadgen/internal/e2e/cases/tensors.Quad lanes=stacked
//gad:hvp NetOutHVPStacked github.com/gadgen/gadgen/internal/e2e/cases/tensors.NetOut wrt=x lanes=stacked
//gad:taylor QuadTaylorStacked github.com/gadgen/gadgen/internal/e2e/cases/tensors.Quad order=3 lanes=stacked
//gad:taylor NetOutTaylorStacked github.com/gadgen/gadgen/internal/e2e/cases/tensors.NetOut wrt=x order=2 seed=line lanes=stacked
//gad:taylor NetOutTaylor github.com/gadgen/gadgen/internal/e2e/cases/tensors.NetOut wrt=x order=2 seed=line

// NetOut is the sum of a perceptron's outputs at x.
//
//gad:hessian wrt=x
//gad:hvp wrt=x
//gad:grad wrt=x
//gad:hvp NetOutHVP2 github.com/gadgen/gadgen/internal/e2e/cases/tensors.NetOut wrt=x lanes=2
func NetOut(n *Net, x *tensorops.Tensor) float64 {
	h := x
	for _, l := range n.Layers {
		h = dense(l, h)
	}
	return tensorops.SumAll(h)
}

// The loss of a model held in a struct of layers, along 2 directions in
// the model's weights (coefficient shadows of the struct, one per lane).
//
//gad:taylor NetLossTaylor2 github.com/gadgen/gadgen/internal/e2e/cases/tensors.NetLoss order=1 lanes=2 wrt=n
