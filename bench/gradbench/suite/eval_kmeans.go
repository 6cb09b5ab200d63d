package suite

// kmeansEval is GradBench's evals/kmeans. (To be written.)
var kmeansEval = Eval{Name: "kmeans", Runs: true}
