package suite

import (
	"fmt"
	"iter"

	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
)

// detEval is GradBench's evals/det: for ell = 5 … 11, a matrix of ell²
// numbers of numpy's legacy stream seeded 31337 (drawn in order, one
// matrix after the other), "primal" then "gradient".
var detEval = Eval{
	Name:       "det",
	Runs:       true,
	Primal:     "primal",
	Derivative: "gradient",
	Requests: func(o Options) iter.Seq2[Request, error] {
		ells := []int{5, 6, 7, 8, 9, 10, 11}
		if o.Small {
			ells = ells[:2]
		}
		return func(yield func(Request, error) bool) {
			rng := nprand.NewMT19937(31337)
			for _, ell := range ells {
				in := map[string]any{"A": rng.Rand(ell * ell), "ell": ell}
				for _, f := range []string{"primal", "gradient"} {
					if !yield(Request{Function: f, Input: in, Description: fmt.Sprint(ell)}, nil) {
						return
					}
				}
			}
		}
	},
}
