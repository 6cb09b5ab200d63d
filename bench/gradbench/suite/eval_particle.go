package suite

// particleEval is GradBench's evals/particle. (To be written.)
var particleEval = Eval{Name: "particle", Runs: true}
