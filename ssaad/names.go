package ssaad

// This file defines the names the modes give parameters of generated
// functions, and the naming scheme of derivative values.
//
// # Naming
//
// Generated code names a derivative value after the value it belongs to,
// so that tangents, Taylor coefficients and adjoints can be told apart:
//
//   - dx is the tangent of x (forward mode, //gad:jvp: FJVP(x, dx));
//   - x1, x2, …, xK are the Taylor coefficients of x (//gad:taylor);
//   - xBar is the adjoint x̄ of x (reverse mode, //gad:grad and //gad:vjp:
//     FGrad(x, xBar), the seed outBar of a result out, the adjoints of
//     local values).
//
// The scheme composes: in the JVP of a gradient, dxBar is the tangent of
// xBar. An element loaded from a slice takes the slice's name and the
// index's (xi := x[i]; xiBar := xBar[i]; see ir.ElementName). Names that
// are taken get a number (dx2).

import (
	"fmt"
	"go/types"
	"unicode"

	"github.com/gadgen/gadgen/ir"
)

// ParamNames returns usable, distinct names for the parameters of fn,
// receiver first: the source names, or for an unnamed receiver the first
// letter of its type (func (Beale) Func → b), for other unnamed
// parameters p0, p1, ….
func ParamNames(fn *types.Func) []string {
	hasRecv := fn.Type().(*types.Signature).Recv() != nil
	used := map[string]bool{}
	var out []string
	for i, v := range Params(fn) {
		n := v.Name()
		switch {
		case n != "" && n != "_":
		case hasRecv && i == 0:
			n = "recv"
			t := v.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if nt, ok := t.(*types.Named); ok {
				r := []rune(nt.Obj().Name())
				n = string(unicode.ToLower(r[0]))
			}
		default:
			n = fmt.Sprintf("p%d", i)
		}
		for used[n] {
			n += "_"
		}
		used[n] = true
		out = append(out, n)
	}
	return out
}

// TangentName names the tangent of a value named base: dbase, "" for "".
func TangentName(base string) string {
	if base == "" {
		return ""
	}
	return "d" + base
}

// AdjointName names the adjoint of a value named base: baseBar, "" for
// "".
func AdjointName(base string) string {
	if base == "" {
		return ""
	}
	return base + AdjointSuffix
}

// AdjointSuffix ends the name of an adjoint.
const AdjointSuffix = "Bar"

// Fresh returns base, or base followed by a number, whichever used does
// not hold yet, and adds it to used.
func Fresh(used map[string]bool, base string) string {
	n := base
	for k := 2; used[n]; k++ {
		n = fmt.Sprintf("%s%d", base, k)
	}
	used[n] = true
	return n
}

// FuncName is ir.FuncName: "F", or "T.M" for a method.
func FuncName(fn *types.Func) string { return ir.FuncName(fn) }

// CallConstruct names a call in diagnostics, the same in every mode (so
// that a refusal that two directives meet is reported once): "call of
// pkg.F", "call of pkg.T.M".
func CallConstruct(c *ir.Callee) string {
	if c.Func != nil && c.Func.Pkg() != nil {
		return "call of " + c.Func.Pkg().Name() + "." + FuncName(c.Func)
	}
	return "call of " + c.String()
}
