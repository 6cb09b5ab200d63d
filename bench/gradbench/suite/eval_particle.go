package suite

import "iter"

// particleEval is GradBench's evals/particle: the four variants from
// w = 0, each expected to reach GradBench's fixed w.
var particleEval = Eval{
	Name:     "particle",
	Runs:     true,
	Requests: variants(map[string]any{"w": 0.0}),
	Expect:   func(Request) (any, bool) { return 0.2071918746486116, true },
}

// variants returns the requests of the particle and saddle evals: the
// variants rr, ff, fr and rf in GradBench's order, on one input.
func variants(in map[string]any) func(Options) iter.Seq2[Request, error] {
	return func(Options) iter.Seq2[Request, error] {
		return func(yield func(Request, error) bool) {
			for _, f := range []string{"rr", "ff", "fr", "rf"} {
				if !yield(Request{Function: f, Input: in, Description: "w=0"}, nil) {
					return
				}
			}
		}
	}
}
