package suite

// saddleEval is GradBench's evals/saddle: the four variants from (1, 1),
// each expected to reach GradBench's fixed point (its description, "w=0",
// is GradBench's too).
var saddleEval = Eval{
	Name:     "saddle",
	Runs:     true,
	Requests: variants(map[string]any{"start": []float64{1, 1}}),
	Expect: func(Request) (any, bool) {
		const v = 8.246324826140356e-06
		return []any{v, v, v, v}, true
	},
}
