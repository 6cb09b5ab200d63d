package ssaad

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

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
	// FreshStores reports StoresOnlyFresh of callee's body (false when
	// unknown).
	FreshStores(callee *types.Func) bool
}

// OptionsEnv is implemented by an Env that can also generate derivatives
// in a mode that takes options: Taylor mode asks for the derivatives of
// callees at its own order (order=K), and its second-order helpers for the
// line-seeded jet of their target.
type OptionsEnv interface {
	// DerivativeWithOptions is Env.Derivative for a request with the
	// given options (Request.Options); derivatives with different options
	// are different functions.
	DerivativeWithOptions(mode string, opts Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error)
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
	Build(mode string, opts Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error)
	// Generated returns the body of a function Build made, simplified,
	// for the caller to read (not to change).
	Generated(d *ir.DerivedFunc) *ir.Func
}

// Options are the options of a request besides wrt=, opt= and test=,
// parsed and checked by ParseOptions; each mode reads those it accepts
// (Mode.Options lists their keys). The zero value is no options.
type Options struct {
	// Order is Taylor mode's order=K, the degree of the polynomials; 0
	// when not given.
	Order int
	// Line is seed=line: the varied inputs move on a line, only their
	// first coefficients are parameters (seed=jet, the default: all).
	Line bool
	// Lanes is lanes=L: L directions at once, sharing the primal (one
	// tangent, or one jet, per direction: vector forward mode, the
	// Hessian's JVP of the gradient, //gad:hvp lanes=L); with Collapsed,
	// the internal collapsed=L of the Laplacian's jet. 0 when not given.
	Lanes int
	// Collapsed is the internal collapsed=L (order 2): the L directions'
	// second coefficients are summed into one (collapsed Taylor mode).
	Collapsed bool
	// Gonum is //gad:grad's gonum=true: the gradient in gonum/optimize's
	// shape.
	Gonum bool
	// NoValue is reverse mode's value=false: the generated function
	// leaves out the primal results.
	NoValue bool
	// Scratch, internal, has bit i set when the caller does not read the
	// memory that parameter i (receiver first) points to after the call:
	// the derivative may drop the stores into it that it does not read
	// back (ir.Func.Scratch). The HVP asks for the JVP of a gradient with
	// the gradient's buffer as scratch.
	Scratch uint64
	// NoResultCoefs, internal: the caller reads none of the coefficients
	// (tangents) of the results, which are then zero, so that what only
	// they needed is not computed (the HVP reads the tangent of the
	// gradient's buffer, not the tangent of the value).
	NoResultCoefs bool
	// Stacked, internal: the directions of a call travel stacked, as one
	// tensor [L, …] whose first axis is marked as the direction axis
	// (tensorops.Lanes), L known at run time: the function is generated
	// for one direction (one lane; collapsed: one lane whose second-order
	// terms are summed over the directions by tensorops.SumLanes), and the
	// runtime's lane-aware operations compute every direction at once. The
	// driver refuses such a function when a value that stacked directions
	// cannot carry depends on them (CheckStacked).
	Stacked bool
	// NoScalarCoefs, internal, with Stacked: the caller reads none of the
	// per-direction coefficients of the float results (scalars, one per
	// direction, which stacked directions do not represent): they are
	// zero and not computed. A collapsed coefficient, a sum over the
	// directions, is still computed.
	NoScalarCoefs bool
	// ScalarLanes, internal, with Stacked in Taylor mode (not collapsed):
	// the coefficients of the float results are returned as tensors of
	// directions [L] (*tensorops.Tensor, marked), one scalar per
	// direction: the Hessian diagonal's jets.
	ScalarLanes bool
	// StackedIO is a directive's lanes=stacked: the caller passes the
	// directions as plain tensors [L, …] and receives plain ones, which
	// the generated function marks on entry (tensorops.Lanes) and unmarks
	// on return.
	StackedIO bool
	// Checkpoint is reverse mode's checkpoint=C: the loops of the
	// function whose steps are calls keep at most C copies of their state
	// at once and recompute the steps between them (binomial
	// checkpointing, package revolve) instead of recording every step. 0
	// when not given.
	Checkpoint int
}

// MaxOrder is the largest order=K accepted: the generated code is
// quadratic in K.
const MaxOrder = 12

// MaxLanes bounds lanes=L and collapsed=L.
const MaxLanes = 16

// MaxCheckpoint bounds checkpoint=C.
const MaxCheckpoint = 1 << 30

// ParseOptions parses the values of a directive's options, in the order
// given (keys are those of Mode.Options; unknown keys are the caller's
// to refuse), and checks each value on its own.
func ParseOptions(keys, values []string) (Options, error) {
	var o Options
	for i, k := range keys {
		v := values[i]
		switch k {
		case "order":
			if o.Order = intIn(v, MaxOrder); o.Order == 0 {
				return o, fmt.Errorf("order=%s: want an integer K with 1 ≤ K ≤ %d", v, MaxOrder)
			}
		case "seed":
			switch v {
			case "", "jet":
				o.Line = false
			case "line":
				o.Line = true
			default:
				return o, fmt.Errorf("seed=%s: want seed=jet (every input coefficient is a parameter, the default) or seed=line (only the first)", v)
			}
		case "collapsed":
			if o.Lanes = intIn(v, MaxLanes); o.Lanes == 0 {
				return o, fmt.Errorf("collapsed=%s: want 1 to %d directions, at order=2", v, MaxLanes)
			}
			o.Collapsed = true
		case "lanes":
			if v == "stacked" {
				o.Stacked, o.StackedIO = true, true
				break
			}
			if o.Lanes = intIn(v, MaxLanes); o.Lanes == 0 {
				return o, fmt.Errorf("lanes=%s: want 1 to %d directions, or stacked (any number, in one tensor [L, …])", v, MaxLanes)
			}
		case "checkpoint":
			if o.Checkpoint = intIn(v, MaxCheckpoint); o.Checkpoint == 0 {
				return o, fmt.Errorf("checkpoint=%s: want the number of copies of a loop's state kept at once, a positive integer", v)
			}
		case "gonum":
			if v != "true" {
				return o, fmt.Errorf("option gonum=%s: the value must be true", v)
			}
			o.Gonum = true
		case "value":
			switch v {
			case "true":
				o.NoValue = false
			case "false":
				o.NoValue = true
			default:
				return o, fmt.Errorf("option value=%s: the value must be true or false", v)
			}
		default:
			return o, fmt.Errorf("unknown option %q", k)
		}
	}
	if o.Collapsed && o.Order != 2 {
		return o, fmt.Errorf("collapsed=%d: want 1 to %d directions, at order=2", o.Lanes, MaxLanes)
	}
	return o, nil
}

// intIn returns the integer that s spells if it is in [1, hi], else 0.
func intIn(s string, hi int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > hi {
		return 0
	}
	return n
}

// String returns the options in directive form, " order=2 seed=line",
// in a fixed order; "" for none. Derivatives with different options are
// different functions: the driver keys them by it.
func (o Options) String() string {
	var sb strings.Builder
	if o.Checkpoint > 0 {
		fmt.Fprintf(&sb, " checkpoint=%d", o.Checkpoint)
	}
	if o.Collapsed {
		fmt.Fprintf(&sb, " collapsed=%d", o.Lanes)
	}
	if o.Gonum {
		sb.WriteString(" gonum=true")
	}
	if o.Lanes > 0 && !o.Collapsed {
		fmt.Fprintf(&sb, " lanes=%d", o.Lanes)
	}
	if o.Stacked {
		sb.WriteString(" stacked")
	}
	if o.NoScalarCoefs {
		sb.WriteString(" noscalarcoefs")
	}
	if o.ScalarLanes {
		sb.WriteString(" scalarlanes")
	}
	if o.StackedIO {
		sb.WriteString(" stackedio")
	}
	if o.Order > 0 {
		fmt.Fprintf(&sb, " order=%d", o.Order)
	}
	if o.Line {
		sb.WriteString(" seed=line")
	}
	if o.NoValue {
		sb.WriteString(" value=false")
	}
	if o.Scratch != 0 {
		fmt.Fprintf(&sb, " scratch=%b", o.Scratch)
	}
	if o.NoResultCoefs {
		sb.WriteString(" noresultcoefs")
	}
	return sb.String()
}
