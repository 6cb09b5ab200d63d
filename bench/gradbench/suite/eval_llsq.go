package suite

// llsqEval is GradBench's evals/llsq. (To be written.)
var llsqEval = Eval{Name: "llsq", Runs: true}
