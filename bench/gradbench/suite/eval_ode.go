package suite

// odeEval is GradBench's evals/ode. (To be written.)
var odeEval = Eval{Name: "ode", Runs: true}
