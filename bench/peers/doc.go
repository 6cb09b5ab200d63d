// Package peers benchmarks gadgen's peers, the automatic-differentiation
// libraries for Go, on one problem: the loss and the gradient of a
// multilayer perceptron (784-256-256-10, tanh hidden activations, batch
// 128, mean softmax cross-entropy against one-hot labels), in float64 and
// float32, on one thread.
//
// The package holds the problem (Problem, NewProblem), the Contender
// interface and its registry (Register, Entries), a plain-Go reference with
// hand-written backpropagation (Plain), the comparison of losses and
// gradients (Compare) and the timing (Measure). Each library is a
// contender in its own package (gadgen, gomlx, gorgonia, spago, and torch:
// PyTorch in a Python worker, a SelfTimed contender, skipped where PyTorch
// is not installed) that registers itself in an init function; package all
// imports every contender, and cmd/peers prints the tables. See README.md.
package peers
