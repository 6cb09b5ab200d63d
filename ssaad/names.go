package ssaad

// This file defines the names the modes give parameters of generated
// functions.

import (
	"fmt"
	"go/types"
	"unicode"
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

// FuncName names fn in messages and doc comments: "F", or "T.M" for a
// method (pointer receivers and aliases too).
func FuncName(fn *types.Func) string {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		switch t := t.(type) {
		case *types.Named:
			return t.Obj().Name() + "." + fn.Name()
		case *types.Alias:
			return t.Obj().Name() + "." + fn.Name()
		case *types.Interface:
			return "interface." + fn.Name()
		}
	}
	return fn.Name()
}
