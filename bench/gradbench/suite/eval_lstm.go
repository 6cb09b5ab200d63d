package suite

// lstmEval is GradBench's evals/lstm. (To be written.)
var lstmEval = Eval{Name: "lstm", Runs: true}
