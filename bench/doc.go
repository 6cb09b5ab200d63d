// Package bench is gadgen's benchmark suite: the objectives of the suite
// table in README.md (beside this file) written as plain Go, the
// derivatives gadgen generates for them, hand-written gradients and finite
// differences, and the harness that verifies each derivative and then
// times it, and counts the memory it allocates, against the function it
// differentiates.
//
// Each suite lives in a package of its own, holding the objective (with its
// //gad: directives), the generated file beside it, a hand-written
// gradient (HandGrad) and a seeded data generator:
//
//	S1a       rosenbrock  extended Rosenbrock
//	S1b       logsumexp   stable log-sum-exp
//	S1c       ode         RK4 on cmpad's an_ode
//	S2a       gmm         ADBench's GMM log-posterior with the Wishart prior
//	S2c       lstm        ADBench's LSTM loss
//	S2d       mlp         MLP loss in plain Go, weights in a struct (Net.Loss)
//	S2d-flat  mlp         the same loss with the weights as parameters (LossFlat)
//	S2e       gp          Gaussian-process likelihood, hand-written Cholesky
//	S3        normalize   vector normalization with the norm inside the loop
//	S4        higher      a tanh MLP's gradient and Hessian-vector product
//
// A suite may ask for a derivative that gadgen does not generate yet
// (Suite.Pending, with gadgen's diagnostic): its directive is kept in the
// package's source written "// gad:" (with a space, which gadgen skips),
// and the table shows the cell as not generated yet. S2d-flat and S4 are
// set aside from the headline means (Suite.Aside).
//
// This package flattens every objective into a Problem (its varied inputs
// as one vector, the derivatives as functions of that vector) so that one
// harness verifies and times them all. Suites lists them, with their sizes
// in tiers; Run verifies and measures a selection and returns a Report,
// whose Markdown method prints the table. The gadbench command
// (cmd/gadbench) is a thin wrapper around Run; the Benchmark functions of
// this package's tests report the same ratios through testing.B.
//
// # Method
//
// Every number is a ratio measured in one run: the time of a derivative
// divided by the time of the plain function, both per call. Each function is
// repeated until one sample takes at least Sampling.Sample (200 ms by
// default), the samples of all the functions of a problem are interleaved,
// and each keeps the minimum of Sampling.Count (at least 5) samples. Before
// anything is timed, Verify checks every derivative of the problem and Run
// stops with an error naming the one that is wrong.
//
// The derivative kinds (Kind) are the columns of the table: gadgen's JVP
// (one directional derivative, forward mode), gadgen's reverse-mode
// gradient, gadgen's Hessian-vector product (forward over reverse), the
// hand-written gradient, gonum's fd.Gradient with central differences
// (small sizes only: it costs 2n evaluations), and gadgen's JVP and
// gradient generated without optimization. Gradients follow the
// reverse-mode convention FGrad(x, dx) float64: return the value, add the
// gradient to dx.
//
// Memory is the heap allocated per call (runtime.MemStats' TotalAlloc and
// Mallocs over up to 10 calls, after the timing): the bytes and the number
// of allocations of the function and of each derivative, and each
// derivative's bytes over the function's.
package bench
