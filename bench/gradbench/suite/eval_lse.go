package suite

import (
	"fmt"
	"iter"

	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
)

// lseEval is GradBench's evals/lse: for n = 2500 … 1280000 (doubling),
// x = np.random.rand(n) from one legacy stream seeded 31337, then
// "primal" and "gradient" of the same input. (run.py's --min and --max
// are not used by it.)
var lseEval = Eval{
	Name:       "lse",
	Runs:       true,
	Primal:     "primal",
	Derivative: "gradient",
	Requests: func(o Options) iter.Seq2[Request, error] {
		ns := []int{2500, 5000, 10000, 20000, 40000, 80000, 160000, 320000, 640000, 1280000}
		if o.Small {
			ns = ns[:1]
		}
		return func(yield func(Request, error) bool) {
			rng := nprand.NewMT19937(31337)
			for _, n := range ns {
				input := map[string]any{"x": rng.Rand(n)}
				if !yieldBoth(yield, input, fmt.Sprintf("n=%d", n)) {
					return
				}
			}
		}
	},
}

// yieldBoth yields the evaluations of "primal" and then "gradient" of one
// input, as the evals that have these two functions send them, and reports
// whether to go on.
func yieldBoth(yield func(Request, error) bool, input any, desc string) bool {
	for _, f := range []string{"primal", "gradient"} {
		if !yield(Request{Function: f, Input: input, Description: desc}, nil) {
			return false
		}
	}
	return true
}
