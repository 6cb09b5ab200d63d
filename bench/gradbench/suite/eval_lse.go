package suite

// lseEval is GradBench's evals/lse. (To be written.)
var lseEval = Eval{Name: "lse", Runs: true}
