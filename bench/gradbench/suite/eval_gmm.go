package suite

import (
	"fmt"
	"iter"

	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
)

// gmmEval is GradBench's evals/gmm: for d in {2, 10, 20, 32, 64} and k in
// {5, 10, 25, 50, 100}, sorted by d·k, n = 1000 points, m = 0 and γ = 1,
// each input drawn from its own np.random.default_rng(31337) (run.py's
// generate), then "objective" and "jacobian" of the same input.
var gmmEval = Eval{
	Name:       "gmm",
	Runs:       true,
	Primal:     "objective",
	Derivative: "jacobian",
	Requests: func(o Options) iter.Seq2[Request, error] {
		sizes := byProduct([]int{2, 10, 20, 32, 64}, []int{5, 10, 25, 50, 100})
		if o.Small {
			sizes = sizes[:2]
		}
		const n, m, gamma = 1000, 0, 1.0
		return func(yield func(Request, error) bool) {
			for _, sz := range sizes {
				d, k := sz[0], sz[1]
				input := gmmInput(31337, d, k, n, m, gamma)
				desc := fmt.Sprintf("%d_%d_%d", d, k, n)
				for _, f := range []string{"objective", "jacobian"} {
					if !yield(Request{Function: f, Input: input, Description: desc}, nil) {
						return
					}
				}
			}
		}
	},
}

// gmmInput is run.py's generate: the fields drawn in this order from
// default_rng(seed): x (n rows of d normals), alpha (k normals), mu (k
// rows of d uniforms), q (k rows of d normals), l (k rows of d(d−1)/2
// normals).
func gmmInput(seed uint32, d, k, n, m int, gamma float64) map[string]any {
	rng := nprand.NewPCG64(seed)
	rows := func(r, c int, draw func(int) []float64) [][]float64 {
		out := make([][]float64, r)
		for i := range out {
			out[i] = draw(c)
		}
		return out
	}
	x := rows(n, d, rng.Normal)
	alpha := rng.Normal(k)
	mu := rows(k, d, rng.Uniform)
	q := rows(k, d, rng.Normal)
	l := rows(k, d*(d-1)/2, rng.Normal)
	return map[string]any{
		"d": d, "k": k, "n": n, "x": x, "m": m, "gamma": gamma,
		"alpha": alpha, "mu": mu, "q": q, "l": l,
	}
}
