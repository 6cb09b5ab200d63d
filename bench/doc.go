// Package bench is gadgen's benchmark suite: the objectives of
// /work/shared/benchmarks.md written as plain Go, the derivatives gadgen
// generates for them, hand-written gradients and finite differences, and
// the harness that verifies each derivative and then times it against the
// function it differentiates.
//
// Each suite lives in a package of its own, holding the objective (with its
// //gad:jvp directive), the generated file beside it, a hand-written
// gradient (HandGrad) and a seeded data generator:
//
//	S1a  rosenbrock  extended Rosenbrock
//	S1b  logsumexp   stable log-sum-exp
//	S1c  ode         RK4 on cmpad's an_ode
//	S2a  gmm         ADBench's GMM log-posterior with the Wishart prior
//	S2c  lstm        ADBench's LSTM loss
//	S3   normalize   vector normalization with the norm inside the loop
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
// (one directional derivative, forward mode), gadgen's reverse-mode gradient
// (reserved for //gad:grad; a Problem without it leaves the column out), the
// hand-written gradient, and gonum's fd.Gradient with central differences
// (small sizes only: it costs 2n evaluations). Gradients follow the
// reverse-mode convention FGrad(x, dx) float64: return the value, add the
// gradient to dx.
package bench
