package ssaad

// This file defines SigBuilder, which the modes use to build the
// signatures of the functions they generate.

import (
	"fmt"
	"go/token"
	"go/types"
)

// SigBuilder builds the signature of a function generated for a target:
// its parameters in order (the target's receiver stays a receiver when
// the generated function is a method), then Build.
type SigBuilder struct {
	pkg     *types.Package
	method  bool
	recv    *types.Var
	params  []*types.Var
	Results []*types.Var
}

// NewSigBuilder checks that active has an entry per parameter of fn
// (receiver first) and that a method's target has a receiver, and returns
// a builder for a function of fn's package.
func NewSigBuilder(fn *types.Func, active []bool, method bool) (*SigBuilder, error) {
	if n := len(Params(fn)); len(active) != n {
		return nil, fmt.Errorf("activity of %d parameters for %d", len(active), n)
	}
	if method && fn.Type().(*types.Signature).Recv() == nil {
		return nil, fmt.Errorf("%s is not a method", fn.Name())
	}
	return &SigBuilder{pkg: fn.Pkg(), method: method}, nil
}

// Var returns a parameter or result named name of type typ.
func (s *SigBuilder) Var(name string, typ types.Type) *types.Var {
	return types.NewParam(token.NoPos, s.pkg, name, typ)
}

// Primal adds the target's parameter i (0 is the receiver of a method).
func (s *SigBuilder) Primal(i int, name string, typ types.Type) {
	if s.method && i == 0 {
		s.recv = s.Var(name, typ)
		return
	}
	s.Add(name, typ)
}

// Add appends a parameter.
func (s *SigBuilder) Add(name string, typ types.Type) {
	s.params = append(s.params, s.Var(name, typ))
}

// Build returns the signature.
func (s *SigBuilder) Build(variadic bool) *types.Signature {
	return types.NewSignatureType(s.recv, nil, nil, types.NewTuple(s.params...), types.NewTuple(s.Results...), variadic)
}
