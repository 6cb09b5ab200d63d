package suite

import (
	"fmt"
	"iter"
	"sort"

	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
)

// kmeansEval is GradBench's evals/kmeans: every (k, n, d) of k ∈ {10,
// 100, 1000}, n ∈ {1000, 10000}, d ∈ {8, 16}, sorted by k·n·d (a stable
// sort, as Python's), n×d points of numpy's legacy stream seeded 31337
// (drawn in that order), the last k of them the centroids; "cost" then
// "dir".
var kmeansEval = Eval{
	Name:       "kmeans",
	Runs:       true,
	Primal:     "cost",
	Derivative: "dir",
	Requests: func(o Options) iter.Seq2[Request, error] {
		type knd struct{ k, n, d int }
		var all []knd
		for _, k := range []int{10, 100, 1000} {
			for _, n := range []int{1000, 10000} {
				for _, d := range []int{8, 16} {
					all = append(all, knd{k, n, d})
				}
			}
		}
		sort.SliceStable(all, func(i, j int) bool {
			return all[i].k*all[i].n*all[i].d < all[j].k*all[j].n*all[j].d
		})
		if o.Small {
			all = all[:1]
		}
		return func(yield func(Request, error) bool) {
			rng := nprand.NewMT19937(31337)
			for _, w := range all {
				points := rng.Rand2(w.n, w.d)
				in := map[string]any{"points": points, "centroids": points[w.n-w.k:]}
				desc := fmt.Sprintf("k=%d,n=%d,d=%d", w.k, w.n, w.d)
				for _, f := range []string{"cost", "dir"} {
					if !yield(Request{Function: f, Input: in, Description: desc}, nil) {
						return
					}
				}
			}
		}
	},
}
