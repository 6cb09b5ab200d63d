package suite

import (
	"fmt"
	"iter"
	"sort"

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
		ns := []int{16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8196, 16392}
		ms := []int{128}
		type size struct{ n, m int }
		var sizes []size
		for _, n := range ns {
			for _, m := range ms {
				sizes = append(sizes, size{n, m})
			}
		}
		sort.SliceStable(sizes, func(i, j int) bool { return sizes[i].n*sizes[i].m < sizes[j].n*sizes[j].m })
		if o.Small {
			sizes = sizes[:2]
		}
		return func(yield func(Request, error) bool) {
			rng := nprand.NewMT19937(31337)
			for _, s := range sizes {
				input := map[string]any{"x": rng.Rand(s.m), "n": s.n}
				if !yieldBoth(yield, input, fmt.Sprintf("n=%d,m=%d", s.n, s.m)) {
					return
				}
			}
		}
	},
}
