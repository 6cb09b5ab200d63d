package simplify

// This file defines the removal of the alias checks (ir.AliasCheck) of a
// generated function that its callers make redundant.
//
// Reverse mode checks, on entry to each gradient, that a varied slice and
// its shadow, and a slice the function writes and one it reads, do not
// start at the same element. A function that only gradients call (a
// callee's reverse, qtimesxReverse) makes the same checks on its
// arguments, which its callers usually show apart already: in GMM's
// gradient, qtimesxReverse(qx, qxBar, qdiag[c*d:(c+1)*d], …, l[c*nl:…],
// lBar[c*nl:…], xc, xcBar) passes slices the caller made (qx, xc,
// qdiag, …) and l and lBar, which the caller checked on its own entry and
// slices from the same offset. Such a check is removed, as a compiler
// removes a bounds check its callers make redundant: it can never fail.
//
// Two arguments are apart, in the sense of the check (they do not start at
// the same element, unless one is empty), when they are slices, from
// equal offsets, of
//
//   - two different allocations of the caller (make, new, a variable): each
//     is memory of its own;
//   - an allocation of the caller and a parameter: the parameter's memory
//     existed before the caller allocated;
//   - two parameters of the caller that its own entry checks;
//   - a nil slice and any other (it has no element), and φs whose
//     arguments are apart on every path (scratch made in one branch).
//
// The last case leans on the caller's check, which this pass may remove in
// turn: that stays sound, because a check goes only when every call of its
// function passes slices apart, so by induction over the calls a program
// makes, the slices of every call are apart whether the check is there or
// not.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// DropApartChecks removes, from each function of fns that internal
// reports only generated code calls, the entry alias checks that every
// call of it in fns shows to hold (see the file comment). callee returns
// the function of fns that a call calls, or nil. A function no call of fns
// calls keeps its checks. It returns, for each function it removed checks
// from, whether it removed them all.
func DropApartChecks(fns []*ir.Func, internal func(*ir.Func) bool, callee func(*ir.Value) *ir.Func) map[*ir.Func]bool {
	checks := map[*ir.Func][]ir.AliasCheck{}
	for _, f := range fns {
		checks[f] = entryChecks(f)
	}
	type site struct {
		caller *ir.Func
		call   *ir.Value
	}
	sites := map[*ir.Func][]site{}
	for _, f := range fns {
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if v.Op == ir.OpCall {
					if g := callee(v); g != nil {
						sites[g] = append(sites[g], site{f, v})
					}
				}
			}
		}
	}
	// Decide on every function before removing any check: a caller's
	// checks are what its calls lean on.
	drop := map[*ir.Func][]ir.AliasCheck{}
	for _, f := range fns {
		if !internal(f) || len(sites[f]) == 0 {
			continue
		}
		for _, k := range checks[f] {
			if k.A.Op != ir.OpParam || k.C.Op != ir.OpParam {
				continue
			}
			proven := true
			for _, s := range sites[f] {
				if !passes(s.call, f, k.A) || !passes(s.call, f, k.C) ||
					!argsApart(s.call.Args[k.A.Index], s.call.Args[k.C.Index], checks[s.caller]) {
					proven = false
					break
				}
			}
			if proven {
				drop[f] = append(drop[f], k)
			}
		}
	}
	all := map[*ir.Func]bool{}
	for f, ks := range drop {
		gone := map[*ir.Block]bool{}
		for _, k := range ks {
			k.Bypass()
			gone[k.Check], gone[k.Fail] = true, true
		}
		var kept []*ir.Block
		for _, b := range f.Blocks {
			if !gone[b] {
				kept = append(kept, b)
			}
		}
		f.Blocks = kept
		f.Renumber()
		DeadCode(f)
		all[f] = len(ks) == len(checks[f])
	}
	return all
}

// passes reports whether argument p.Index of call is what f's parameter p
// holds: the call passes as many arguments as f has parameters, that one
// of p's type (not the elements of a variadic parameter listed one by
// one).
func passes(call *ir.Value, f *ir.Func, p *ir.Value) bool {
	return len(call.Args) == len(f.Params) && types.Identical(call.Args[p.Index].Type, p.Type)
}

// entryChecks returns the alias checks f makes on entry: the chain of
// them that starts at its entry block, which reverse mode builds before
// anything else (ssaad/reverse, aliasChecks).
func entryChecks(f *ir.Func) []ir.AliasCheck {
	var ks []ir.AliasCheck
	for b := f.Entry(); ; {
		k, ok := ir.FindAliasCheck(b)
		if !ok {
			return ks
		}
		ks = append(ks, k)
		b = k.Next
	}
}

// argsApart reports whether slices a and b of a caller whose entry checks
// are checked are apart in the sense of an alias check (see the file
// comment).
func argsApart(a, b *ir.Value, checked []ir.AliasCheck) bool {
	ra, oa := sliceRoot(a)
	rb, ob := sliceRoot(b)
	return rootsApart(ra, oa, rb, ob, checked, 3)
}

// rootsApart reports whether slices of ra from the offsets oa and of rb
// from ob are apart. A nil slice is apart from any (it has no element); a
// φ is apart from a value when each of its arguments is (on every path,
// the value it takes), and two φs of one block when their arguments on
// each edge are, depth φs deep.
func rootsApart(ra *ir.Value, oa []*ir.Value, rb *ir.Value, ob []*ir.Value, checked []ir.AliasCheck, depth int) bool {
	if ra == rb {
		return false
	}
	// arg returns the root and offsets of argument k of φ r sliced from o.
	arg := func(r *ir.Value, k int, o []*ir.Value) (*ir.Value, []*ir.Value) {
		x, ox := sliceRoot(r.Args[k])
		return x, append(append([]*ir.Value(nil), ox...), o...)
	}
	switch {
	case ir.IsNil(ra) || ir.IsNil(rb):
		return true
	case fresh(ra) && (fresh(rb) || rb.Op == ir.OpParam), fresh(rb) && ra.Op == ir.OpParam:
		return true // memory of its own, from any offset
	case ra.Op == ir.OpParam && rb.Op == ir.OpParam && sameOffsets(oa, ob):
		for _, k := range checked {
			if k.A == ra && k.C == rb || k.A == rb && k.C == ra {
				return true
			}
		}
	case depth == 0:
	case ra.Op == ir.OpPhi && rb.Op == ir.OpPhi && ra.Block == rb.Block:
		for k := range ra.Args {
			xa, xoa := arg(ra, k, oa)
			xb, xob := arg(rb, k, ob)
			if !rootsApart(xa, xoa, xb, xob, checked, depth-1) {
				return false
			}
		}
		return true
	case ra.Op == ir.OpPhi || rb.Op == ir.OpPhi:
		if ra.Op != ir.OpPhi {
			ra, oa, rb, ob = rb, ob, ra, oa
		}
		for k := range ra.Args {
			xa, xoa := arg(ra, k, oa)
			if !rootsApart(xa, xoa, rb, ob, checked, depth-1) {
				return false
			}
		}
		return true
	}
	return false
}

// sliceRoot returns the value that v slices, through any number of
// slicings, and their low bounds, leaving out the missing and zero ones:
// l[c*nl:(c+1)*nl] is l from offset c*nl.
func sliceRoot(v *ir.Value) (*ir.Value, []*ir.Value) {
	var lows []*ir.Value
	for v.Op == ir.OpSlice {
		if lo := v.Args[1]; lo != nil && !isIntConst(lo, 0) {
			lows = append(lows, lo)
		}
		v = v.Args[0]
	}
	return v, lows
}

// sameOffsets reports whether two lists of low bounds are sure to add up
// to one offset: they are equal one by one (see sameValue).
func sameOffsets(a, b []*ir.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b are sure to be equal wherever both are
// computed: one value, equal constants, or one pure operation (not a call)
// of arguments sure to be equal. The copies Rematerialize makes of c*nl
// for each use are equal so.
func sameValue(a, b *ir.Value) bool {
	switch {
	case a == b:
		return true
	case a == nil || b == nil:
		return false
	case a.Op == ir.OpConst || b.Op == ir.OpConst:
		return sameConst(a, b)
	case a.Op != b.Op || !a.Op.Info().Pure || a.Tok != b.Tok || a.Index != b.Index || len(a.Args) != len(b.Args) ||
		!types.Identical(a.Type, b.Type):
		return false
	}
	for i := range a.Args {
		if !sameValue(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}
