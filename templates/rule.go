// This file defines Rule, Kind and the lookup of rules by package and name.

package templates

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// Kind classifies how a function behaves under differentiation.
type Kind int

const (
	// Smooth: differentiable where defined; Partials give the derivative
	// (with the conventions of Note at kinks, ties and poles).
	Smooth Kind = iota
	// PiecewiseConstant: the derivative is zero wherever it exists (Floor,
	// Ceil, Trunc, Round, Signbit, IsNaN, ...). Results carry no derivative;
	// an active argument simply stops being active.
	PiecewiseConstant
	// NotDifferentiable: no derivative. Calling the function on an active
	// value is an error; Reason says why.
	NotDifferentiable
)

// SeriesKind says how Taylor mode expands a rule given by linear maps
// (Rule.Tangent).
type SeriesKind int

const (
	// FirstOrder: the maps give only the first-order coefficient (the
	// tangent); Taylor mode takes the higher ones from Rule.Expand, and
	// refuses the function beyond order 1 without it.
	FirstOrder SeriesKind = iota
	// Linear: the function is linear in its differentiable parameters
	// jointly, or linear in them with a choice fixed by the others (Max
	// along an axis picks by the primal values): coefficient k of the
	// result is Σⱼ Tangent[j] with the coefficients k of the arguments
	// for their tangents.
	Linear
	// Bilinear: the function is bilinear in its two differentiable
	// parameters a and b (MatMul, Dot, Outer): coefficient k of the result
	// is Σ_{i=0..k} Tangent[0] with a's coefficient i for da and b's
	// coefficient k−i for b.
	Bilinear
)

func (k Kind) String() string {
	switch k {
	case Smooth:
		return "Smooth"
	case PiecewiseConstant:
		return "PiecewiseConstant"
	case NotDifferentiable:
		return "NotDifferentiable"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Rule is the first-order derivative rule of one function. Rules are shared
// and must not be modified.
type Rule struct {
	// Pkg is the import path of the function's package ("math",
	// "gonum.org/v1/gonum/mathext"), or "" for the functions called
	// without a package name: the builtins min and max, and the helpers
	// (see [Helpers]).
	Pkg string
	// Name is the function's name: "Sin", "Atan2", "max", "gadDigamma".
	Name string
	// Func is the function itself (math.Sin, mathext.Lbeta, gadDigamma),
	// nil for the builtins: what Eval, the IR interpreter (package
	// ir/interp) and the constant folder (package simplify) call. A test
	// checks that it is the function Pkg and Name name.
	Func any
	// Params names the arguments, in order, as the expressions use them:
	// math's own parameter names ({"y", "x"} for Atan2). Arguments that are
	// not floats (Jn's order n, Ldexp's exp) are named too and may appear
	// as values in int argument positions of math calls.
	Params []string
	// Results names the results as the expressions use them: {"r"} for a
	// single result; math's own names for several ({"frac", "exp"} for
	// Frexp, {"lgamma", "sign"} for Lgamma), except {"s", "c"} for Sincos.
	// Non-float results are named but have no partials.
	Results []string
	// Kind says whether Partials apply.
	Kind Kind
	// Partials[i][j] is ∂Results[i]/∂Params[j] as an expression of the
	// language Parse accepts, or "" when it is identically zero or the
	// result or the parameter is not a float. Partials has exactly
	// len(Results) rows of len(Params) entries when Kind is Smooth and is
	// nil otherwise.
	Partials [][]string
	// Domain[j] is the interval [lo, hi] in which tests draw Params[j]:
	// where the derivative exists and finite differences are well
	// conditioned. Integer parameters are drawn as integers in [lo, hi].
	// Domain has len(Params) entries unless Kind is NotDifferentiable.
	Domain [][2]float64
	// Math is the mathematics of the rule, e.g. "d/dx sin x = cos x".
	Math string
	// Tangent, when not nil, gives the derivative by linear maps instead
	// of Partials (the rules of tensor operations, whose derivatives are
	// not elementwise products: MatMul, Sum, Transpose, Softmax, ...):
	// Tangent[j] is the tangent of the (single) result due to the tangent
	// of Params[j], an expression linear in "d"+Params[j] that may name
	// the parameters and the result, e.g. "tensorops.MatMul(da, b)". An
	// empty entry means the function is not differentiable in that
	// parameter: an active argument there is refused (ints, bools and
	// shapes are never active); "0" that the result depends on it only
	// through its shape (like in SumLike(g, like)). Tangent has
	// len(Params) entries.
	Tangent []string
	// Adjoint[j] is the contribution to the adjoint of Params[j] of the
	// result's adjoint, named Results[0]+"Bar" ("rBar"): the transpose of
	// the map Tangent[j], e.g. "tensorops.MatMulGradA(rBar, a, b, false,
	// false)". It is "" exactly where Tangent[j] is. Reverse mode reads
	// it; Adjoint is nil exactly when Tangent is (except in a user's rule
	// with only a JVP or only a VJP, see JVP).
	Adjoint []string
	// A rule may give both Partials and Tangent (an elementwise function
	// with a fused kernel for its first-order derivative, Tanh's TanhJVP):
	// forward mode at order 1 and reverse mode use Tangent and Adjoint,
	// Taylor mode's higher orders the Partials.
	//
	// Series says how Taylor mode expands a rule given by Tangent: its
	// coefficients of order k > 1 are linear (Linear), convolved
	// (Bilinear), or not given by the maps (FirstOrder, the zero value:
	// the function is used in forward and reverse mode only, unless
	// Expand gives its series).
	Series SeriesKind
	// Joint says that Tangent's entries are not one map per parameter
	// but one map of all the tangents at once, the same expression in
	// every entry that is not "" (a user's JVP function, see JVP): forward
	// mode evaluates it once, each "d"+Params[j] bound to the tangent of
	// argument j or, where that is zero, to the zero of its type.
	Joint bool
	// JVP and VJP, in a rule that a user gives one of their functions
	// with //gad:rule jvp=… vjp=… (package driver builds it), are the
	// user's Go functions that the pseudo-functions jvp(…) and vjp(…) of
	// Tangent and Adjoint call (see Parse). Every mode calls them as
	// written, and differentiates them through their bodies when it needs
	// a derivative of such a call (the JVP of the VJP in a
	// Hessian-vector product). A user's rule may give only one of them:
	// Tangent or Adjoint is then nil, and Reason says what the modes that
	// need the missing one report.
	JVP, VJP *types.Func
	// Expand, when not "", gives the (single) result of a FirstOrder
	// rule as an expression of other primitives, from which Taylor mode
	// takes the coefficients of order k > 1 (the recurrences of Exp, Log,
	// products, …, of the primitives it calls), while the first-order
	// modes keep the rule's own maps (fused kernels): LogSumExp(a, axis)
	// is "r + tensorops.Log(tensorops.Sum(tensorops.Exp(a -
	// tensorops.ExpandAxis(r, a, axis)), axis))". The parameters stand
	// for their series; the result's name stands for its value held
	// constant (all its coefficients of order ≥ 1 zero), a shift that
	// keeps the expression stable: the exponentials above are at most 1
	// and sum to 1 at the point, whatever a's size. The
	// expression must not call the function itself.
	Expand string
	// Note states the convention at kinks, ties, poles and
	// discontinuities (Abs at 0, Max at ties), "" if none.
	Note string
	// Reason says why a NotDifferentiable function has no derivative, or,
	// for a user's rule without Tangent or without Adjoint, why the modes
	// that need them cannot use it.
	Reason string
}

// key returns the lookup key of the function pkg.name.
func key(pkg, name string) string { return pkg + "." + name }

// all holds every rule, sorted by Pkg then Name; byName indexes it by key.
var (
	all    = sortedRules(mathRules, mathextRules, builtinRules, helperRules, tensorRules, tensorShapeRules)
	byName = index(all)
)

// sortedRules returns the rules of the tables, sorted by Pkg then Name.
func sortedRules(tables ...[]*Rule) []*Rule {
	rules := slices.Concat(tables...)
	slices.SortFunc(rules, func(a, b *Rule) int {
		if c := strings.Compare(a.Pkg, b.Pkg); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return rules
}

// index maps the key of each rule to the rule; it panics on a duplicate.
func index(rules []*Rule) map[string]*Rule {
	m := make(map[string]*Rule, len(rules))
	for _, r := range rules {
		k := key(r.Pkg, r.Name)
		if m[k] != nil {
			panic("templates: duplicate rule for " + k)
		}
		m[k] = r
	}
	return m
}

// Lookup returns the rule of the function name of the package with import
// path pkg ("" for builtins), and whether there is one.
func Lookup(pkg, name string) (*Rule, bool) {
	r, ok := byName[key(pkg, name)]
	return r, ok
}

// LookupFunc returns the rule of fn, a function declared at package level
// (or a method of tensorops.Tensor, named "Tensor.M"), by its package's
// import path and its name, and whether
// there is one. The functions with rules are gadgen's primitives: every
// mode differentiates their calls by the rule, never through their
// bodies, and the optimizer treats them as pure.
func LookupFunc(fn *types.Func) (*Rule, bool) {
	if fn == nil || fn.Pkg() == nil {
		return nil, false
	}
	if recv := fn.Signature().Recv(); recv != nil {
		// Methods of the tensor runtime's Tensor: "Tensor.Dim".
		if fn.Pkg().Path() != TensorPkg {
			return nil, false
		}
		return Lookup(TensorPkg, "Tensor."+fn.Name())
	}
	return Lookup(fn.Pkg().Path(), fn.Name())
}

// All returns every rule, sorted by Pkg then Name. The slice is fresh; the
// rules are shared.
func All() []*Rule { return slices.Clone(all) }
