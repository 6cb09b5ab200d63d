package suite

// detEval is GradBench's evals/det. (To be written.)
var detEval = Eval{Name: "det", Runs: true}
