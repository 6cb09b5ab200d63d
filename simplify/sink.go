package simplify

// This file defines sinking: a value without effects that one instruction
// of a later block reads moves down to just before that instruction, so
// that the emitter writes it inside the expression that reads it, as a
// person would, instead of holding it in a variable across the loops in
// between (code sinking, the dual of LICM: Muchnick, §13.1 and §18.4).
//
// In GMM's gradient, the Wishart prior's constant
//
//	t3 := np * float64(d) * -0.3465…
//	for j := 1; j <= d; j++ { … out += lg }
//	c2 := t3 - out
//
// becomes c2 := np*float64(d)*-0.3465… - out, after the loop.
//
// A value moves only where it is computed at most as often as before: the
// block of its use lies in no loop that its own block lies outside. It
// never moves into a loop, so sinking does not undo LICM.
//
// Within a block, a load of a number moves down, with the values that
// carry it, to the store or call that reads it, past the stores and calls
// in between that cannot write what it reads (alias classes, alias.go),
// as CSE reasons about loads. In the reverse of GMM's first loop,
//
//	t6 := tape[len(tape)-1]
//	t7 := sumqBar[c]
//	t8 := qdiagBar[c*d+j]
//	qdiagBar[c*d+j] = 0
//	qBar[c*d+j] += t7 + t6*t8
//
// the loads of the tape and of sumqBar pass the store into qdiagBar, and
// the emitter writes them in the statement that reads them:
// qBar[c*d+j] += sumqBar[c] + tape[len(tape)-1]*t4. A load moves only past
// stores, builtin calls (append, copy) and pure calls, which cannot panic
// in its stead.

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// Sink moves each value that has no effects and cannot panic (see
// sinkable), and that one instruction of another block reads once (not a
// φ: its value is read on an edge), to just before that instruction,
// when every loop holding the reader's block holds the value's block too.
// A value named after a source variable stays, so that the variable is
// written where the source wrote it. It repeats until nothing moves, so
// that a chain of such values moves together. Loads move first, within
// their blocks (sinkLoads).
func Sink(f *ir.Func, env Env) {
	sinkLoads(f, env)
	for moved := true; moved; {
		moved = false
		f.Renumber()
		cfg := ir.NewCFG(f)
		uses := ir.Uses(f)
		for _, b := range f.Blocks {
			if !cfg.Reachable(b) {
				continue
			}
			for _, v := range append([]*ir.Value(nil), b.Instrs...) {
				if v.ID >= len(uses) || len(uses[v.ID]) != 1 || !sinkable(v) || v.Name != "" {
					continue
				}
				u := uses[v.ID][0]
				if u.Op == ir.OpPhi || u.Block == b || !cfg.Reachable(u.Block) || !loopsWithin(cfg, u.Block, b) ||
					leavesBehind(v, uses) {
					continue
				}
				removeValue(v)
				u.Block.Insert(indexOf(u.Block, u), v)
				moved = true
			}
		}
	}
}

// leavesBehind reports whether v reads a value of its block that only v
// reads and that cannot follow it (a call, a load): moving v would leave
// that value in a variable of its own, where the emitter now writes it
// inside v's expression.
func leavesBehind(v *ir.Value, uses [][]*ir.Value) bool {
	for _, a := range v.Args {
		if a != nil && a.Block == v.Block && len(uses[a.ID]) == 1 && (!sinkable(a) || a.Name != "") {
			return true
		}
	}
	return false
}

// loopsWithin reports whether every loop that holds block to holds block
// from too.
func loopsWithin(cfg *ir.CFG, to, from *ir.Block) bool {
	for _, body := range cfg.Loop {
		if body[to.Index] && !body[from.Index] {
			return false
		}
	}
	return true
}

// sinkable reports whether v may be computed later than where it is: it
// reads no memory, writes none, and cannot panic (so that moving it moves
// no panic past an effect). Integer division, remainder and shifts can
// panic; conversions other than between numbers can allocate or panic.
// Only numbers and booleans computed from numbers move: a tensor, and a
// call reading one, stay where the function computes them, for the passes
// that reuse and release tensors' buffers.
func sinkable(v *ir.Value) bool {
	if b := basic(v.Type); b == nil || b.Info()&(types.IsNumeric|types.IsBoolean) == 0 {
		return false
	}
	switch v.Op {
	case ir.OpUnary, ir.OpSelect, ir.OpLen, ir.OpCap, ir.OpField:
		return true
	case ir.OpBinary:
		switch v.Tok {
		case token.QUO, token.REM:
			return isFloatType(v.Args[0].Type)
		case token.SHL, token.SHR:
			return false
		}
		return true
	case ir.OpConvert:
		return isNumber(v.Type) && isNumber(v.Args[0].Type)
	case ir.OpCall:
		// A primitive of numbers (math.Exp), not a tensor's reduction.
		for _, a := range v.Args {
			if !isNumber(a.Type) {
				return false
			}
		}
		return v.Callee.Primitive() != nil
	}
	return false
}

// isNumber reports whether t is an integer or float type.
func isNumber(t types.Type) bool {
	b := basic(t)
	return b != nil && b.Info()&(types.IsInteger|types.IsFloat) != 0
}

// sinkLoads moves each load of a number, with the values that carry it
// to the statement reading it (see loadChain), down to that statement,
// when what it passes holds a store or call (else the emitter writes the
// load there itself) and cannot write the memory it reads or panic (see
// the file comment).
func sinkLoads(f *ir.Func, env Env) {
	mem := newMemory(f, env, true)
	uses := ir.Uses(f)
	for _, b := range f.Blocks {
		for i := len(b.Instrs) - 1; i >= 0; i-- {
			v := b.Instrs[i]
			if v.Op != ir.OpLoad || !isNumber(v.Type) {
				continue
			}
			chain, root := loadChain(v, uses)
			if root == nil {
				continue
			}
			at := indexOf(b, root)
			carried := map[*ir.Value]bool{v: true}
			for _, c := range chain {
				carried[c] = true
			}
			var passed []*ir.Value
			for _, w := range b.Instrs[i+1 : at] {
				if !carried[w] {
					passed = append(passed, w)
				}
			}
			if !crossesEffect(passed) || !loadSurvives(v, passed, mem, env) {
				continue
			}
			// The values passed keep their order, then come the load and
			// the values carrying it, just before root.
			seq := append(append(passed, v), chain...)
			copy(b.Instrs[i:at], seq)
		}
	}
}

// loadChain returns the values that carry load v to the instruction of its
// block that reads it into a statement (root): the values, each read once
// and in v's block, that may move (sinkable, unnamed), from v's reader on,
// in their order. root is a store or a call, a statement the emitter
// writes where it stands; it is nil when the chain leaves the block, or
// ends in a φ or in another value, which the emitter may write elsewhere
// or hold in a variable wherever the load is.
func loadChain(v *ir.Value, uses [][]*ir.Value) (chain []*ir.Value, root *ir.Value) {
	for x := v; ; {
		if x.ID >= len(uses) || len(uses[x.ID]) != 1 {
			return nil, nil
		}
		u := uses[x.ID][0]
		switch {
		case u.Block != v.Block || u.Op == ir.OpPhi:
			return nil, nil
		case sinkable(u) && u.Name == "":
			chain = append(chain, u)
			x = u
		case u.Op == ir.OpStore || u.Op == ir.OpCall:
			return chain, u
		default:
			return nil, nil
		}
	}
}

// crossesEffect reports whether ws holds a store or a call: what keeps
// the emitter from writing a load at its use (across pure values and other
// loads it does so itself).
func crossesEffect(ws []*ir.Value) bool {
	for _, w := range ws {
		if w.Op == ir.OpStore || w.Op == ir.OpCall {
			return true
		}
	}
	return false
}

// loadSurvives reports whether load v reads the same memory after the
// instructions ws, none of which may panic in its stead: they are pure,
// stores into other memory, or calls of builtins or pure functions that
// write other memory.
func loadSurvives(v *ir.Value, ws []*ir.Value, mem *memory, env Env) bool {
	c := mem.class(v.Args[0])
	for _, w := range ws {
		switch {
		case w.Op == ir.OpStore:
			if mem.class(w.Args[0]) == c && typesOverlap(v.Type, w.Args[1].Type) {
				return false
			}
		case ir.IsSuspend(w) || ir.IsRelease(w):
			return false // what follows runs later, or the buffers go
		case w.Op == ir.OpCall:
			if w.Callee.Builtin == "" && !isPure(w) && !pureCall(w, env) || writeClasses(w, mem, env)[c] {
				return false
			}
		case !w.Op.Info().Pure && w.Op != ir.OpLoad:
			return false
		}
	}
	return true
}
