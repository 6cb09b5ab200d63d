package suite

// saddleEval is GradBench's evals/saddle. (To be written.)
var saddleEval = Eval{Name: "saddle", Runs: true}
