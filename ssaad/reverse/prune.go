package reverse

// Records the reverse does not read. A group of recorded values
// (pushGroup) goes on a tape at the end of a block's forward copy and
// comes back at the start of its reverse (popGroup), each value followed
// by the shadow paired with it. Which of them the reverse reads is known
// only once it is emitted: an allocation in a loop (v := T{X: a}) is
// recorded for its shadow, which the reverse of its loads and stores
// reads, while the allocation itself is read by no one. pruneRecords then
// drops the slots that no pop reads from both ends: the tape is shorter,
// and what was pushed need not outlive its iteration (&v escapes no more).

import (
	"go/constant"
	"go/token"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// A recordKey names a group's record: the primal block at whose end it is
// pushed, the loop whose iterations it records (nil for a block's needs),
// and the group's first value.
type recordKey struct {
	b, h  *ir.Block
	first *ir.Value
}

// A record holds the pushes (the append calls) and the pops (the popped
// values, in push order) of one group, and the number of its slots
// pruneRecords dropped.
type record struct {
	pushes []*ir.Value
	pops   [][]*ir.Value
	pruned int
}

// A reservedCount is a constant of a tape's reservation (see records in
// reserve.go): the values one iteration of a loop records on the tape,
// the slots of the records in it among them. pruneRecords takes the slots
// it drops off it.
type reservedCount struct {
	k       *ir.Value
	records []recordKey
}

// recordOf returns the record of key k, made on first use.
func (t *transformer) recordOf(k recordKey) *record {
	r := t.groupRecords[k]
	if r == nil {
		r = &record{}
		t.groupRecords[k] = r
		t.recordKeys = append(t.recordKeys, k)
	}
	return r
}

// A poppedSlot is how the pop of one slot reads the tape: the load, its
// address, and its index (base, or base + i); base is len(tape) - n.
type poppedSlot struct {
	load, addr, idx, base *ir.Value
}

// pruneRecords drops from every record the slots whose popped values
// nobody reads, at every push and pop of the record.
func (t *transformer) pruneRecords() {
	uses := ir.Uses(t.F)
	drop := map[*ir.Value]bool{}
	for _, k := range t.recordKeys {
		r := t.groupRecords[k]
		slots, ok := r.parse()
		if !ok {
			continue
		}
		n := len(slots[0])
		pos := make([]int, n) // the new position of slot j, or -1
		kept := 0
		for j := range n {
			pos[j] = -1
			for _, pop := range slots {
				if !unread(pop[j].load, uses) {
					pos[j] = kept
					kept++
					break
				}
			}
		}
		if kept == n || kept == 0 {
			continue
		}
		r.pruned = n - kept
		for _, push := range r.pushes {
			args := []*ir.Value{push.Args[0]}
			for j, a := range push.Args[1:] {
				if pos[j] >= 0 {
					args = append(args, a)
				}
			}
			push.Args = args
		}
		for _, pop := range slots {
			pop[0].base.Args[1] = t.F.Int(int64(kept))
			for j, s := range pop {
				switch {
				case pos[j] < 0:
					drop[s.load], drop[s.addr] = true, true
					for _, u := range uses[s.load.ID] {
						drop[u] = true // a store into a variable nobody loads
					}
					if s.idx != s.base {
						drop[s.idx] = true
					}
				case s.idx == s.base:
				case pos[j] == 0:
					s.addr.Args[1] = s.base
					drop[s.idx] = true
				default:
					s.idx.Args[1] = t.F.Int(int64(pos[j]))
				}
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	for _, c := range t.reserved {
		n := c.k.Const
		for _, k := range c.records {
			if r := t.groupRecords[k]; r != nil {
				n = constant.BinaryOp(n, token.SUB, constant.MakeInt64(int64(r.pruned)))
			}
		}
		if constant.Sign(n) >= 0 {
			c.k.Const = n
		}
	}
	for _, b := range t.F.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(v *ir.Value) bool { return drop[v] })
	}
}

// parse returns, for each pop of r, how it reads each slot, and false
// when r has no push or no pop, or a push or pop of another shape than
// push and pop emit.
func (r *record) parse() ([][]poppedSlot, bool) {
	if len(r.pushes) == 0 || len(r.pops) == 0 {
		return nil, false
	}
	n := len(r.pops[0])
	for _, push := range r.pushes {
		if len(push.Args) != n+1 {
			return nil, false
		}
	}
	var out [][]poppedSlot
	for _, xs := range r.pops {
		if len(xs) != n {
			return nil, false
		}
		pop := make([]poppedSlot, n)
		for j, x := range xs {
			if x.Op != ir.OpLoad || x.Args[0].Op != ir.OpIndexAddr {
				return nil, false
			}
			s := poppedSlot{load: x, addr: x.Args[0], idx: x.Args[0].Args[1]}
			s.base = s.idx
			if j > 0 {
				if s.idx.Op != ir.OpBinary || s.idx.Tok != token.ADD {
					return nil, false
				}
				s.base = s.idx.Args[0]
			}
			if s.base.Op != ir.OpBinary || s.base.Tok != token.SUB || s.base != pop[0].base && j > 0 {
				return nil, false
			}
			pop[j] = s
		}
		out = append(out, pop)
	}
	return out, true
}

// unread reports whether nothing reads x: its only uses store it into
// variables that are never loaded (the variables of an iteration the
// reverse does not read).
func unread(x *ir.Value, uses [][]*ir.Value) bool {
	for _, u := range uses[x.ID] {
		if u.Op != ir.OpStore || u.Args[1] != x || u.Args[0] == x || u.Args[0].Op != ir.OpAlloc {
			return false
		}
		for _, w := range uses[u.Args[0].ID] {
			if w.Op != ir.OpStore || w.Args[0] != u.Args[0] || w.Args[1] == u.Args[0] {
				return false
			}
		}
	}
	return true
}
