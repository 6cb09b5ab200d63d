package forward

// This file defines forward mode as a mode of the driver; the
// transformation is Taylor mode's with one coefficient.

import (
	"go/types"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/taylor"
)

// Mode is forward mode, //gad:jvp.
type Mode struct{}

// Name implements ssaad.Mode.
func (Mode) Name() string { return "jvp" }

// Suffix implements ssaad.Mode.
func (Mode) Suffix() string { return "JVP" }

// Options implements ssaad.Mode: //gad:jvp takes only wrt=.
func (Mode) Options() []string { return nil }

// Signature implements ssaad.Mode.
func (Mode) Signature(req *ssaad.Request) (*types.Signature, error) {
	return taylor.TangentSignature(req)
}

// Transform implements ssaad.Mode.
func (Mode) Transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env) (*ir.Func, diag.List) {
	return taylor.Tangent(primal, req, env)
}
