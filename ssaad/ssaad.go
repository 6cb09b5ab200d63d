// Package ssaad holds what gadgen's differentiation modes share: the
// request a directive makes, the Mode interface each transformer (forward,
// reverse, Taylor) implements, the environment through which a transformer
// asks for the derivatives of callees, and the rules for which parameters
// are active by default.
//
// Three packages implement Mode: ssaad/taylor the forward-propagating
// modes, //gad:jvp (its order 1) and //gad:taylor; ssaad/reverse
// //gad:grad and //gad:vjp; ssaad/second the second-order helpers
// (//gad:hvp, //gad:hessian, //gad:hessdiag, //gad:laplacian), which
// compose the others through Env (the JVP of a gradient, Taylor jets).
// The first two lower the rules of package templates with Expander
// (series.go): at order 0 for reverse mode's partials, at order 1 for
// tangents, at order K for Taylor coefficients. The driver (package
// driver) owns loading, naming, and writing files; a mode
// only turns a primal ir.Func into a derivative ir.Func.
package ssaad

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
)

// Request asks for one generated derivative function.
type Request struct {
	// Mode is the directive's mode ("jvp").
	Mode string
	// Target is the function or method to differentiate.
	Target *types.Func
	// Name is the name of the generated function.
	Name string
	// Method: generate a method on Target's receiver type (the doc-comment
	// form on a method of the package being generated). Otherwise a
	// method's receiver becomes the first parameter, as in the method
	// expression T.Func.
	Method bool
	// Active[i] says whether parameter i (the receiver first, for a
	// method) is varied. Use DefaultActivity, or WrtActivity for wrt=.
	Active []bool
	// Options holds the directive's other options, parsed
	// (ParseOptions) and checked against Mode.Options.
	Options Options
	// Pos is the position of the directive, or of the call that made the
	// driver generate this derivative for a callee.
	Pos token.Pos
	// Split: reverse mode reverses every call it can in two halves
	// (split reversal) rather than by recomputing it (gadgen's
	// -reversal=split, for testing).
	Split bool
	// NoSplit: the derivative is differentiated in turn (nesting: an HVP
	// differentiates a gradient), so no call is split, since a split
	// call's continuation cannot be differentiated.
	NoSplit bool
	// Dump, when not nil, receives the text of each analysis result and of
	// the IR after each stage ("activity", "jvp", "simplify", …), for
	// gadgen's -dump option.
	Dump func(stage, text string)
}

// Mode is one differentiation mode.
type Mode interface {
	// Name is the directive's mode ("jvp").
	Name() string
	// Suffix is appended to a function's name to name its derivative
	// ("JVP").
	Suffix() string
	// Options lists the option keys the directive accepts besides wrt.
	Options() []string
	// Signature returns the signature of the generated function, with
	// named parameters and results (a receiver when req.Method), computed
	// from types alone: the driver uses it for stubs before any code is
	// lowered.
	Signature(req *Request) (*types.Signature, error)
	// Transform returns the derivative of primal (the lowered body of
	// req.Target, receiver as Params[0] for methods) named req.Name. It
	// reports problems as positioned diagnostics; with a derivative, only
	// warnings (diag.Diagnostic.Warning).
	Transform(primal *ir.Func, req *Request, env Env) (*ir.Func, diag.List)
}

// Env is what a transformer may ask of the driver.
type Env interface {
	// Derivative returns the generated function to call for the
	// derivative of callee in mode with the given activity of its
	// parameters (receiver first), arranging for it to be generated once.
	// pos is the call's position, for diagnostics.
	Derivative(mode string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error)
	// Position resolves a token.Pos.
	Position(pos token.Pos) token.Position
	// Writes reports, for each parameter of callee (receiver first),
	// whether it may store through memory reachable from that parameter;
	// nil when unknown. See ParamWrites.
	Writes(callee *types.Func) []bool
	// Reads reports, for each parameter of callee, whether it may read
	// memory reachable from that parameter; nil when unknown. See
	// ParamReads.
	Reads(callee *types.Func) []bool
}

// Params is ir.Params: the parameters of fn as the derivative sees them,
// the receiver first for a method.
func Params(fn *types.Func) []*types.Var { return ir.Params(fn) }

// HasFloat is ir.HasFloat: whether values of type t hold floating-point
// numbers, the types that can carry derivatives.
func HasFloat(t types.Type) bool { return ir.HasFloat(t) }

// DefaultActivity is ir.DefaultActivity: parameters whose types hold
// floats are varied, except a method's receiver.
func DefaultActivity(fn *types.Func) []bool { return ir.DefaultActivity(fn) }

// FullActivity is ir.FullActivity: every parameter whose type holds floats
// is varied, the receiver included.
func FullActivity(fn *types.Func) []bool { return ir.FullActivity(fn) }
