package suite

import (
	"fmt"
	"iter"

	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
)

// llsqEval is GradBench's evals/llsq: for n in 16 … 16392 and m = 128,
// sorted by n·m, x = np.random.rand(m) from one legacy stream seeded
// 31337, then "primal" and "gradient" of the same input.
var llsqEval = Eval{
	Name:       "llsq",
	Runs:       true,
	Primal:     "primal",
	Derivative: "gradient",
	Requests: func(o Options) iter.Seq2[Request, error] {
		sizes := byProduct([]int{16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8196, 16392}, []int{128})
		if o.Small {
			sizes = sizes[:2]
		}
		return func(yield func(Request, error) bool) {
			rng := nprand.NewMT19937(31337)
			for _, sz := range sizes {
				n, m := sz[0], sz[1]
				input := map[string]any{"x": rng.Rand(m), "n": n}
				if !yieldBoth(yield, input, fmt.Sprintf("n=%d,m=%d", n, m)) {
					return
				}
			}
		}
	},
}
