package higher

import "math"

// Chain is the sin∘exp chain of S4b: x ↦ sin(exp(sin(exp(…x)))) with
// Depth sin∘exp pairs, each scaled to stay in range.
func Chain(x float64) float64 {
	for range Depth {
		x = math.Sin(math.Exp(0.5 * x))
	}
	return x
}

// Depth is the number of sin∘exp pairs in Chain.
const Depth = 20

// The order sweep: the same chain at orders 1 to 8.
//
//gad:taylor ChainT1 github.com/gadgen/gadgen/bench/higher.Chain order=1 seed=line
//gad:taylor ChainT2 github.com/gadgen/gadgen/bench/higher.Chain order=2 seed=line
//gad:taylor ChainT3 github.com/gadgen/gadgen/bench/higher.Chain order=3 seed=line
//gad:taylor ChainT4 github.com/gadgen/gadgen/bench/higher.Chain order=4 seed=line
//gad:taylor ChainT5 github.com/gadgen/gadgen/bench/higher.Chain order=5 seed=line
//gad:taylor ChainT6 github.com/gadgen/gadgen/bench/higher.Chain order=6 seed=line
//gad:taylor ChainT7 github.com/gadgen/gadgen/bench/higher.Chain order=7 seed=line
//gad:taylor ChainT8 github.com/gadgen/gadgen/bench/higher.Chain order=8 seed=line

// S1a's HVP target (HVP ≤ 3× the gradient), on bench/rosenbrock's function.
//
//gad:hvp RosenbrockHVP github.com/gadgen/gadgen/bench/rosenbrock.Rosenbrock
