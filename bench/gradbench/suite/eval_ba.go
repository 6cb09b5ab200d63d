package suite

// baEval is GradBench's evals/ba. (To be written.)
var baEval = Eval{Name: "ba", Runs: true}
