package difftest

// This file defines which constructs of the tensor generator gadgen
// must differentiate in which modes, by what the README says it
// supports: the refusals of the others are expected.

import "slices"

// TensorDirModes are the tensor modes of the generator's directives.
var TensorDirModes = []string{ModeJVP, ModeGrad, ModeTaylor, ModeTaylorLanes, ModeHVP, ModeHVPLanes, ModeHessian, ModeHessDiag, ModeLaplacian}

// TensorSupported lists, for each construct of the tensor generator (its
// Program.Features), the modes in which the README says gadgen
// differentiates it: a refusal of a program in a mode listed for every
// construct of the program is counted apart in the summary
// (Summary.Unexpected) and fails TestTensorSample, like a wrong
// derivative. TestTensorSupported checks that the list names every
// construct. The generator gives every program jvp, grad, taylor and
// tlanes, and the second-order helpers to those of one varied
// parameter, a tensor or the model ("Second-order helpers of tensors":
// "a tensor, or a struct of tensors by value or by pointer"); the
// softmax family goes through every mode ("Taylor mode expands them to
// any order, stably").
var TensorSupported = map[string][]string{
	// The operations of package tensorops: "Every mode works on
	// tensors" (README, Tensors), each with one rule in
	// templates/tensorops.go.
	"tanh": TensorDirModes, "sigmoid": TensorDirModes, "sin": TensorDirModes, "cos": TensorDirModes,
	"square": TensorDirModes, "exp": TensorDirModes, "log": TensorDirModes, "relu": TensorDirModes,
	"neg": TensorDirModes, "scale": TensorDirModes, "addscalar": TensorDirModes, "binary": TensorDirModes,
	"div": TensorDirModes, "broadcast": TensorDirModes, "matmul": TensorDirModes, "matmulT": TensorDirModes,
	"transpose": TensorDirModes, "reshape": TensorDirModes, "sum": TensorDirModes, "mean": TensorDirModes,
	"max": TensorDirModes, "logsumexp": TensorDirModes, "softmax": TensorDirModes, "logsoftmax": TensorDirModes,
	"slice": TensorDirModes, "pad": TensorDirModes, "sumall": TensorDirModes, "meanall": TensorDirModes,
	"dot": TensorDirModes, "maxall": TensorDirModes, "softmax-cross-entropy": TensorDirModes,
	"float-param": TensorDirModes,
	// The operations "for models, each with its rules in every mode"
	// (README, The runtime): the smooth activations, lookups by ids,
	// convolution (dilated too) and pooling of NCHW images.
	"gelu": TensorDirModes, "silu": TensorDirModes, "softplus": TensorDirModes, "erf": TensorDirModes,
	"gather": TensorDirModes, "embedding": TensorDirModes, "conv": TensorDirModes, "conv-dilated": TensorDirModes,
	"maxpool": TensorDirModes, "avgpool": TensorDirModes,
	// Concat, the variadic operation, called as users do: its
	// arguments written out, or spread from a slice literal, a slice
	// of heads grown by append or assigned by index in a loop (issue
	// 23: "variadic arguments reach the rules whatever the call
	// form"). The heads are computed inline, by a closure ("closures
	// included") or by a helper returning a tensor ("calls of your own
	// functions").
	"concat": TensorDirModes, "concat-literal3": TensorDirModes, "concat-spread-literal": TensorDirModes,
	"concat-spread-append": TensorDirModes,
	"concat-heads":         TensorDirModes, "parts-append": TensorDirModes, "parts-index": TensorDirModes,
	"heads-inline": TensorDirModes, "heads-closure": TensorDirModes, "heads-helper": TensorDirModes,
	"heads-weight": TensorDirModes, "heads-weights": TensorDirModes, "heads-range-weights": TensorDirModes,
	// Helpers of two tensors, loops (over a counter, over the model's
	// slices of weights: "loops over layers").
	"helper": TensorDirModes, "loop-const": TensorDirModes, "loop-range-weights": TensorDirModes,
	"loop-index-weights": TensorDirModes,
	// Accumulators started from the nil tensor: "nil is the zero
	// tensor of every operation linear in it" (Add, Sub), in a loop,
	// over the model's weights, or tested against nil.
	"acc-nil": TensorDirModes, "acc-nil-sub": TensorDirModes, "acc-nil-test": TensorDirModes,
	"acc-nil-weights": TensorDirModes, "acc-nil-field": TensorDirModes,
	// Helpers returning slices of tensors (grown from nil by append in
	// a loop, or a slice literal of new tensors), and variadic helpers
	// of the program's own called with their arguments written out or
	// spread: "calls of your own functions"; Taylor mode "covers …
	// variadic calls", and since 186e4e4 reverse mode too ("calls of
	// variadic functions of one's own, listed or spread"; "a helper
	// returning a slice grown from nil in a loop is fresh memory").
	"helper-slice": TensorDirModes, "helper-slice-split": TensorDirModes, "helper-slice-pair": TensorDirModes,
	"helper-slice-spread": TensorDirModes, "helper-slice-range": TensorDirModes, "helper-slice-index": TensorDirModes,
	"variadic-helper": TensorDirModes, "variadic-sum": TensorDirModes, "variadic-mix": TensorDirModes,
	"variadic-cat": TensorDirModes, "variadic-literal": TensorDirModes, "variadic-spread": TensorDirModes,
	// Structs of tensors: the model by pointer and by value, as F's
	// parameter or receiver ("a model is a struct of *tensorops.Tensor
	// … slices and structs of tensors"); local structs of tensors
	// passed to helpers and methods by value and by pointer, slices of
	// them ranged over; a state struct stepped in place by a method of
	// a pointer receiver or a helper of a pointer, or replaced by a
	// method of a value receiver; methods and helpers of the model; the
	// model's slices of Layers ("Net{Layers []Layer}"); a local struct
	// holding a slice of tensors, to helpers and methods by value and by
	// pointer.
	"model": TensorDirModes, "model-ptr": TensorDirModes, "model-value": TensorDirModes,
	"recv-ptr": TensorDirModes, "recv-value": TensorDirModes,
	"struct-layer": TensorDirModes, "struct-value-helper": TensorDirModes, "struct-ptr-helper": TensorDirModes,
	"struct-method-value": TensorDirModes, "struct-method-ptr": TensorDirModes, "struct-pointer-var": TensorDirModes,
	"struct-slice-range": TensorDirModes,
	// A field []Layer of the model: a slice of structs of tensors, which
	// the second-order helpers take too (θ element by element).
	"model-layers": TensorDirModes,
	"struct-stack": TensorDirModes, "stack-value-helper": TensorDirModes, "stack-ptr-helper": TensorDirModes,
	"stack-method-value": TensorDirModes, "stack-method-ptr": TensorDirModes, "stack-append": TensorDirModes,
	"state-step": TensorDirModes, "state-method-ptr": TensorDirModes, "state-helper-ptr": TensorDirModes,
	"state-method-value": TensorDirModes,
	"model-method":       TensorDirModes, "model-method-ptr": TensorDirModes, "model-method-value": TensorDirModes,
	"model-helper-ptr": TensorDirModes, "model-helper-value": TensorDirModes, "model-method-loop": TensorDirModes,
}

// Unsupported returns the constructs of features that TensorSupported
// does not list for mode (for a mode of the harness, the mode whose
// functions it checks).
func Unsupported(features []string, mode string) []string {
	if m, ok := harnessModes[mode]; ok {
		mode = m
	}
	var out []string
	for _, f := range features {
		if !slices.Contains(TensorSupported[f], mode) {
			out = append(out, f)
		}
	}
	return out
}
