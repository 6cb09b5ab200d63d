package ssaad

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// AliasEnv is implemented by an Env that can specialize a function for
// calls whose arguments share memory.
type AliasEnv interface {
	// Aliased returns the specialization of callee (receiver first) for
	// calls whose argument i is the same slice or pointer as argument
	// same[i] (same[i] < i, or i for the others): a function of the
	// parameters i with same[i] == i, whose body is callee's with the
	// parameters that are the same made one.
	Aliased(callee *types.Func, same []int) *types.Func
}

// OriginsEnv is implemented by an Env that knows where the slices and
// pointers a function returns come from, and where it stores them.
type OriginsEnv interface {
	// Origins returns ResultOrigins of callee's body, or nil when unknown.
	Origins(callee *types.Func) []int
	// StoresMemory reports StoresMemory of callee's body (true when
	// unknown).
	StoresMemory(callee *types.Func) bool
}

// OptionsEnv is implemented by an Env that can also generate derivatives
// in a mode that takes options: Taylor mode asks for the derivatives of
// callees at its own order (order=K), and its second-order helpers for the
// line-seeded jet of their target.
type OptionsEnv interface {
	// DerivativeWithOptions is Env.Derivative for a request with the
	// given options (Request.Options); derivatives with different options
	// are different functions.
	DerivativeWithOptions(mode string, opts map[string]string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error)
}

// BuildEnv is implemented by an Env that can generate a derivative at
// once, and so say whether it can be generated: the second-order helpers
// compose modes (forward mode over a gradient) and take another route
// when a composition does not apply.
type BuildEnv interface {
	// Build is OptionsEnv.DerivativeWithOptions with the derivative and
	// those it needs generated now. It returns the error that stops any
	// of them, and then generates none of them. The result's Obj stands
	// for the derivative as a Go function, which Build (or Derivative)
	// can differentiate in turn.
	Build(mode string, opts map[string]string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error)
}
