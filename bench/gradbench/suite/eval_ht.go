package suite

// htEval is GradBench's evals/ht. (To be written.)
var htEval = Eval{Name: "ht", Runs: true}
