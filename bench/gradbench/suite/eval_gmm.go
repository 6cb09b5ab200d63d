package suite

// gmmEval is GradBench's evals/gmm. (To be written.)
var gmmEval = Eval{Name: "gmm", Runs: true}
