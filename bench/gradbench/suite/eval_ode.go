package suite

import (
	"fmt"
	"iter"
	"sort"

	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
)

// odeEval is GradBench's evals/ode: for n in {1000, 10000, 100000} and s
// in {1, 10, 100}, sorted by n·s, x = np.random.rand(n) from one legacy
// stream seeded 31337, then "primal" and "gradient" of the same input.
var odeEval = Eval{
	Name:       "ode",
	Runs:       true,
	Primal:     "primal",
	Derivative: "gradient",
	Requests: func(o Options) iter.Seq2[Request, error] {
		sizes := byProduct([]int{1000, 10000, 100000}, []int{1, 10, 100})
		if o.Small {
			sizes = sizes[:1]
		}
		return func(yield func(Request, error) bool) {
			rng := nprand.NewMT19937(31337)
			for _, sz := range sizes {
				n, s := sz[0], sz[1]
				input := map[string]any{"x": rng.Rand(n), "s": s}
				if !yieldBoth(yield, input, fmt.Sprintf("n=%d,s=%d", n, s)) {
					return
				}
			}
		}
	},
}

// byProduct returns the pairs (a, b) of as × bs sorted by a·b, pairs of
// equal products in the order a-major enumeration gives them: Python's
// sorted([(a, b) for a in as for b in bs], key=lambda v: v[0] * v[1]),
// which is stable.
func byProduct(as, bs []int) [][2]int {
	var out [][2]int
	for _, a := range as {
		for _, b := range bs {
			out = append(out, [2]int{a, b})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0]*out[i][1] < out[j][0]*out[j][1] })
	return out
}
