package ir

// This file defines how the IR recognizes the tensors of gadgen's runtime
// (package tensorops), which the modes treat as values: a *tensorops.Tensor
// is differentiated like a float, with a tensor of the same shape for its
// tangent or adjoint, nil for zero, and the runtime's functions for the
// arithmetic on them.

import (
	"go/types"

	"github.com/gadgen/gadgen/templates"
)

// IsTensor reports whether t is *tensorops.Tensor.
func IsTensor(t types.Type) bool {
	if t == nil {
		return false
	}
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == "Tensor" && obj.Pkg() != nil && obj.Pkg().Path() == templates.TensorPkg
}

// TensorFunc returns the function name of the package of the tensor type
// t, or nil when there is none.
func TensorFunc(t types.Type, name string) *types.Func {
	if !IsTensor(t) {
		return nil
	}
	pkg := types.Unalias(types.Unalias(t).(*types.Pointer).Elem()).(*types.Named).Obj().Pkg()
	fn, _ := pkg.Scope().Lookup(name).(*types.Func)
	return fn
}

// IsRelease reports whether v calls the runtime's release of buffers
// (templates.ReleaseFunc).
func IsRelease(v *Value) bool { return TensorCall(v) == templates.ReleaseFunc }

// TensorCall returns the name of the function of the tensor runtime that
// v calls (a package-level function, not a method), or "".
func TensorCall(v *Value) string {
	if v.Op != OpCall || v.Callee == nil || v.Callee.Func == nil || v.Callee.Func.Pkg() == nil ||
		v.Callee.Func.Pkg().Path() != templates.TensorPkg || v.Callee.Func.Signature().Recv() != nil {
		return ""
	}
	return v.Callee.Func.Name()
}
