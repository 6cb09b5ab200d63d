package ir

// This file defines Check, the IR's sanity checker (in the spirit of
// go/ssa's sanity.go and cmd/compile's check.go). Passes do not call it;
// the driver runs it on every primal and derivative after each pass of
// package simplify (simplify.Config.Check) and after each mode's
// transformation, so an invalid IR is an internal error, never output.

import (
	"fmt"
	"strings"
)

// Check verifies the invariants listed in the package documentation and
// returns an error describing every violation it finds, or nil.
func Check(f *Func) error {
	if len(f.Blocks) == 0 {
		return fmt.Errorf("ir.Check %s: no blocks", f.Name)
	}
	c := &checker{f: f}
	c.header()
	if len(c.errs) > 0 {
		return checkError(f, c.errs)
	}
	c.index()
	for _, b := range f.Blocks {
		c.block(b)
	}
	if len(c.errs) > 0 {
		return checkError(f, c.errs)
	}
	return nil
}

// checker holds what Check learns of a function and the faults it finds.
type checker struct {
	f       *Func
	errs    []string
	cfg     *CFG
	defined map[*Value]bool // the parameters and the values of some block
	pos     map[*Value]int  // a value's position in its block
	consts  map[*Value]bool // constants checked already
}

func (c *checker) bad(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// header checks the parameters, the results and the blocks' numbering.
func (c *checker) header() {
	f := c.f
	for i, p := range f.Params {
		if p.Op != OpParam || p.Index != i || p.Block != nil || p.Type == nil {
			c.bad("param %d: %s", i, p.LongString(nil))
		}
	}
	if len(f.ResultNames) != len(f.ResultTypes) {
		c.bad("%d result names for %d result types", len(f.ResultNames), len(f.ResultTypes))
	}
	for i, b := range f.Blocks {
		if b.Index != i {
			c.bad("b%d at position %d", b.Index, i)
		}
		if b.Func != f {
			c.bad("b%d belongs to another function", b.Index)
		}
	}
}

// index records where each value is defined, and finds values defined
// twice.
func (c *checker) index() {
	c.cfg = NewCFG(c.f)
	c.defined, c.pos, c.consts = map[*Value]bool{}, map[*Value]int{}, map[*Value]bool{}
	for _, p := range c.f.Params {
		c.defined[p] = true
	}
	for _, b := range c.f.Blocks {
		for i, v := range b.Instrs {
			if c.defined[v] {
				c.bad("%s appears twice", v.Ref())
			}
			c.defined[v] = true
			c.pos[v] = i
		}
	}
}

// block checks b's edges, its terminator, and each of its values.
func (c *checker) block(b *Block) {
	// Edges mirror each other.
	for _, s := range b.Succs {
		if s.PredIndex(b) < 0 {
			c.bad("b%d -> b%d not in b%d.Preds", b.Index, s.Index, s.Index)
		}
	}
	for _, p := range b.Preds {
		found := false
		for _, s := range p.Succs {
			found = found || s == b
		}
		if !found {
			c.bad("b%d in b%d.Preds but b%d has no edge to it", p.Index, b.Index, p.Index)
		}
	}
	term := b.Terminator()
	if term == nil {
		c.bad("b%d does not end with a terminator", b.Index)
		return
	}
	if len(b.Succs) != term.Op.Info().Succs {
		c.bad("b%d ends with %s but has %d successors", b.Index, term.Op, len(b.Succs))
	}
	if term.Op == OpReturn && len(term.Args) != len(c.f.ResultTypes) {
		c.bad("b%d returns %d values, function has %d results", b.Index, len(term.Args), len(c.f.ResultTypes))
	}
	phis := true
	for i, v := range b.Instrs {
		if v.Block != b {
			c.bad("%s in b%d has Block b%d", v.Ref(), b.Index, blockIndex(v.Block))
		}
		if v.Op.IsTerminator() && i != len(b.Instrs)-1 {
			c.bad("terminator %s in the middle of b%d", v.Ref(), b.Index)
		}
		if v.Op == OpParam {
			c.bad("param %s inside b%d", v.Ref(), b.Index)
		}
		if v.Op == OpPhi {
			if !phis {
				c.bad("phi %s after non-phi in b%d", v.Ref(), b.Index)
			}
			if len(v.Args) != len(b.Preds) {
				c.bad("phi %s has %d args, b%d has %d preds", v.Ref(), len(v.Args), b.Index, len(b.Preds))
			}
		} else {
			phis = false
		}
		checkOperands(v, c.bad)
		if c.cfg.Reachable(b) {
			c.args(v, b, i)
		}
	}
}

// args checks the arguments of v, at position i of reachable block b:
// each is defined in this function and dominates its use (a φ's, the end
// of the predecessor it flows from).
func (c *checker) args(v *Value, b *Block, i int) {
	for j, a := range v.Args {
		if a == nil {
			if !v.Op.Info().IsOptional(j) {
				c.bad("%s: argument %d is nil", v.Ref(), j)
			}
			continue
		}
		if a.Op == OpConst || a.Op == OpParam {
			if a.Op == OpConst && !c.consts[a] {
				c.consts[a] = true
				checkOperands(a, c.bad)
			}
			if a.Op == OpParam && !c.defined[a] {
				c.bad("%s uses a parameter of another function", v.Ref())
			}
			continue
		}
		if !c.defined[a] {
			c.bad("%s uses %s, which is in no block of %s", v.Ref(), a.Ref(), c.f.Name)
			continue
		}
		if !c.cfg.Reachable(a.Block) {
			c.bad("%s uses %s from unreachable b%d", v.Ref(), a.Ref(), a.Block.Index)
			continue
		}
		if v.Op == OpPhi {
			if j >= len(b.Preds) || !c.cfg.Reachable(b.Preds[j]) {
				continue
			}
			if !c.cfg.Dominates(a.Block, b.Preds[j]) {
				c.bad("%s: argument %s from b%d does not dominate b%d", v.Ref(), a.Ref(), a.Block.Index, b.Preds[j].Index)
			}
			continue
		}
		if a.Block == b {
			if c.pos[a] >= i {
				c.bad("%s uses %s before its definition", v.Ref(), a.Ref())
			}
		} else if !c.cfg.Dominates(a.Block, b) {
			c.bad("%s uses %s from b%d, which does not dominate b%d", v.Ref(), a.Ref(), a.Block.Index, b.Index)
		}
	}
}

func checkError(f *Func, errs []string) error {
	return fmt.Errorf("ir.Check %s:\n\t%s\n%s", f.Name, strings.Join(errs, "\n\t"), f)
}

func blockIndex(b *Block) int {
	if b == nil {
		return -1
	}
	return b.Index
}

// checkOperands checks v against its op's entry in the table (op.go): its
// number of arguments, which of them may be nil, whether it has a result,
// and its type rule.
func checkOperands(v *Value, bad func(string, ...any)) {
	info := v.Op.Info()
	if info.Args >= 0 && len(v.Args) != info.Args {
		bad("%s: %s takes %d arguments, has %d", v.Ref(), v.Op, info.Args, len(v.Args))
		return
	}
	switch {
	case info.Result == ResultAlways && v.Type == nil:
		bad("%s: %s without a type", v.Ref(), v.Op)
		return
	case info.Result == ResultNever && v.Type != nil:
		bad("%s: %s of type %s", v.Ref(), v.Op, v.Type)
		return
	}
	for j, a := range v.Args {
		switch {
		case a == nil && !info.IsOptional(j):
			return // reported with the uses, where the block is reachable
		case a != nil && a.Type == nil:
			bad("%s: argument %d, %s, has no result", v.Ref(), j, a.Ref())
			return
		}
	}
	if info.typ != nil {
		if msg := info.typ(v); msg != "" {
			bad("%s: %s", v.Ref(), msg)
		}
	}
}
