package ssaad

// This file defines the refusals that name what to use instead, for
// calls of packages whose functions gadgen does not differentiate through
// their bodies: the tensor runtime's functions without a rule, and gonum's
// matrices.

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/templates"
)

// gonumMat is the import path of gonum's matrix package.
const gonumMat = "gonum.org/v1/gonum/mat"

// Refusal returns why a call of fn with varied arguments cannot be
// differentiated, when fn is a function or method of package tensorops
// without a rule or of gonum's package mat; nil otherwise.
func Refusal(fn *types.Func) error {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	name := fn.Pkg().Name() + "." + FuncName(fn)
	switch fn.Pkg().Path() {
	case templates.TensorPkg:
		if _, ok := templates.LookupFunc(fn); ok {
			return nil
		}
		what := "it is not an operation with a derivative rule"
		switch {
		case fn.Signature().Recv() != nil:
			what = "methods of Tensor read or write elements one by one"
		case strings.HasSuffix(fn.Name(), "To") || strings.HasSuffix(fn.Name(), "Into") || fn.Name() == "Copy" || fn.Name() == "Fill" || fn.Name() == "Gemm":
			what = "it writes into a tensor it is given"
		}
		return fmt.Errorf("%s is not differentiated (%s): functions gadgen differentiates treat tensors as values and use the operations that return new tensors (tensorops.Add, MatMul, Sum, Slice, ...), each a primitive with a rule", name, what)
	case gonumMat:
		return fmt.Errorf("%s is not differentiated: gadgen does not differentiate gonum's matrices; compute on tensors (tensorops.FromDense shares a mat.Dense's elements, Tensor.Dense goes back) or on []float64 with loops", name)
	}
	return nil
}
