package reverse

// This file defines the reverse-mode transformer.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// Mode is reverse mode, //gad:grad.
type Mode struct{}

// Name implements ssaad.Mode.
func (Mode) Name() string { return "grad" }

// Suffix implements ssaad.Mode.
func (Mode) Suffix() string { return "Grad" }

// Options implements ssaad.Mode: //gad:grad takes only wrt=.
func (Mode) Options() []string { return nil }

var (
	intType   = types.Typ[types.Int]
	boolType  = types.Typ[types.Bool]
	float64T  = types.Typ[types.Float64]
	stepConst = constant.MakeInt64(1)
)

// Transform implements ssaad.Mode.
func (Mode) Transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env) (*ir.Func, diag.List) {
	t := &transformer{
		primal: primal,
		req:    req,
		env:    env,
		val:    map[*ir.Value]*ir.Value{},
		shadow: map[*ir.Value]*ir.Value{},
		slot:   map[*ir.Value]*ir.Value{},
		tapes:  map[string]*ir.Value{},
		fwd:    map[*ir.Block]*ir.Block{},
		rev:    map[*ir.Block]*ir.Block{},
		rvals:  map[*ir.Value]*ir.Value{},
		pend:   map[*ir.Value]*ir.Value{},
	}
	if len(req.Active) != len(primal.Params) {
		t.errorf(primal.Pos, "", "activity of %d parameters for %d", len(req.Active), len(primal.Params))
		return nil, t.errs
	}
	if _, err := signature(req.Target, req.Active, req.Method); err != nil {
		t.errorf(primal.Pos, "", "%v", err)
		return nil, t.errs
	}
	singleReturn(primal)
	addTupleExtracts(primal)
	for _, b := range primal.Blocks {
		if term := b.Terminator(); term != nil && term.Op == ir.OpReturn {
			t.exit = b
		}
	}
	t.act = ssaad.Varied(primal, req.Active, env.Writes)
	if req.Dump != nil {
		req.Dump("activity", t.act.String())
	}
	t.cfg = ir.NewCFG(primal)
	t.check()
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	t.run()
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	return t.F, nil
}

type transformer struct {
	ssaad.Builder
	primal *ir.Func
	req    *ssaad.Request
	env    ssaad.Env
	act    *ssaad.Activity
	cfg    *ir.CFG
	exit   *ir.Block // the primal's single return block

	val    map[*ir.Value]*ir.Value // primal value → its forward copy
	shadow map[*ir.Value]*ir.Value // primal pointer-like value → its shadow (forward sweep)
	slot   map[*ir.Value]*ir.Value // primal value → the variable holding its adjoint
	tapes  map[string]*ir.Value    // element type → the tape variable
	path   *ir.Value               // the tape of the control path
	local  map[*ir.Value]bool      // values whose adjoints stay within their block (see localValues)
	pend   map[*ir.Value]*ir.Value // adjoints of local values, in the block being reversed
	fwd    map[*ir.Block]*ir.Block // primal block → its forward copy
	rev    map[*ir.Block]*ir.Block // primal block → its reverse
	needs  map[*ir.Block][]*ir.Value
	rvals  map[*ir.Value]*ir.Value // recorded primal value → its popped copy in the current reverse block
	entry  *ir.Block               // entry of the generated function
	errs   diag.List
}

func (t *transformer) errorf(pos token.Pos, construct, format string, args ...any) {
	p := t.env.Position(pos)
	if !p.IsValid() {
		p = t.env.Position(t.primal.Pos)
	}
	t.errs.Add(p, funcName(t.req.Target), construct, format, args...)
}

func funcName(fn *types.Func) string {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		rt := r.Type()
		if p, ok := rt.(*types.Pointer); ok {
			rt = p.Elem()
		}
		if n, ok := rt.(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Name()
}

// singleReturn makes the return blocks of f jump to one new return block
// whose φs merge the results, so that the reverse sweep starts in one
// place.
func singleReturn(f *ir.Func) {
	var rets []*ir.Block
	for _, b := range f.Blocks {
		if term := b.Terminator(); term != nil && term.Op == ir.OpReturn {
			rets = append(rets, b)
		}
	}
	if len(rets) < 2 {
		return
	}
	x := f.NewBlock("return")
	phis := make([]*ir.Value, len(f.ResultTypes))
	for i, rt := range f.ResultTypes {
		phis[i] = x.NewValue(ir.OpPhi, rt)
		phis[i].Name = f.ResultNames[i]
	}
	for _, b := range rets {
		term := b.Instrs[len(b.Instrs)-1]
		b.Instrs = b.Instrs[:len(b.Instrs)-1]
		for i := range phis {
			phis[i].Args = append(phis[i].Args, term.Args[i])
		}
		b.Jump(x)
	}
	x.Return(phis...)
}

// addTupleExtracts gives every call of package math with several results
// an extract of each, so that the partials can name any result.
func addTupleExtracts(f *ir.Func) {
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			v := b.Instrs[i]
			tu, ok := v.Type.(*types.Tuple)
			if v.Op != ir.OpCall || !ok {
				continue
			}
			have := make([]bool, tu.Len())
			for _, w := range b.Instrs {
				if w.Op == ir.OpExtract && w.Args[0] == v {
					have[w.Index] = true
				}
			}
			for k := range have {
				if !have[k] {
					e := f.NewValue(ir.OpExtract, tu.At(k).Type(), v)
					e.Index = k
					b.Insert(i+1, e)
				}
			}
		}
	}
}

func isMath(v *ir.Value) bool {
	c := v.Callee
	return c != nil && c.Func != nil && !c.Invoke && c.Func.Pkg() != nil && c.Func.Pkg().Path() == "math"
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// check reports what this version cannot differentiate.
func (t *transformer) check() {
	p := t.primal
	if len(p.ResultTypes) != 1 || !isFloat(p.ResultTypes[0]) {
		t.errorf(p.Pos, "results", "//gad:grad needs exactly one float result")
		return
	}
	for i, pv := range p.Params {
		if !t.req.Active[i] {
			if t.act.Varied(pv) {
				t.errorf(p.Pos, "parameter "+pv.Name, "values that depend on the varied inputs are stored through it; add it to wrt=")
			}
			continue
		}
		if !isFloat(pv.Type) && !ssaad.IsPointerLike(pv.Type) {
			t.errorf(p.Pos, "parameter "+pv.Name, "reverse mode does not support varied parameters of type %s yet", pv.Type)
		}
	}
	for _, b := range p.Blocks {
		for _, v := range b.Instrs {
			if !t.act.Varied(v) && !(v.Op == ir.OpCall && t.anyVariedArg(v)) {
				continue
			}
			switch v.Op {
			case ir.OpBinary:
				switch v.Tok {
				case token.ADD, token.SUB, token.MUL, token.QUO:
				default:
					t.errorf(v.Pos, "operator "+v.Tok.String(), "not differentiable on %s", v.Type)
				}
			case ir.OpUnary:
				if v.Tok != token.SUB {
					t.errorf(v.Pos, "operator "+v.Tok.String(), "not differentiable")
				}
			case ir.OpCall:
				switch {
				case isMath(v):
					r, ok := templates.Lookup("math", v.Callee.Func.Name())
					if !ok {
						t.errorf(v.Pos, "math."+v.Callee.Func.Name(), "no derivative rule")
					} else if r.Kind == templates.NotDifferentiable {
						t.errorf(v.Pos, "math."+v.Callee.Func.Name(), "not differentiable: %s", r.Reason)
					}
				case v.Callee.Builtin == "min" || v.Callee.Builtin == "max":
					if len(v.Args) != 2 {
						t.errorf(v.Pos, "builtin "+v.Callee.Builtin, "reverse mode supports two arguments only, for now")
					}
				case v.Callee.Builtin == "len" || v.Callee.Builtin == "cap" || v.Callee.Builtin == "print" || v.Callee.Builtin == "println":
				default:
					name := v.Callee.String()
					if fn := v.Callee.Func; fn != nil && fn.Pkg() != nil {
						name = fn.Pkg().Name() + "." + funcName(fn)
					}
					t.errorf(v.Pos, "call of "+name, "reverse mode does not differentiate calls of other functions yet")
				}
			case ir.OpPhi, ir.OpSelect, ir.OpConvert, ir.OpLoad, ir.OpExtract:
				if ssaad.IsPointerLike(v.Type) && v.Op != ir.OpLoad {
					t.errorf(v.Pos, v.Op.String(), "reverse mode does not support slices or pointers chosen at run time yet")
				}
				if v.Op == ir.OpLoad && ssaad.IsPointerLike(v.Type) {
					t.errorf(v.Pos, "load", "reverse mode does not support slices or pointers stored in memory yet")
				}
				if v.Op == ir.OpExtract && !isMath(v.Args[0]) {
					t.errorf(v.Pos, "call", "reverse mode does not differentiate calls yet")
				}
			case ir.OpIndexAddr, ir.OpFieldAddr, ir.OpSlice, ir.OpAlloc, ir.OpMakeSlice, ir.OpLen, ir.OpCap:
				if !t.available(v) && (v.Op == ir.OpAlloc || v.Op == ir.OpMakeSlice) {
					t.errorf(v.Pos, v.Op.String(), "reverse mode does not support memory allocated inside loops or branches yet")
				}
			case ir.OpField, ir.OpIndex:
				t.errorf(v.Pos, v.Op.String(), "reverse mode does not support struct or array values that carry derivatives yet")
			case ir.OpGlobal:
				t.errorf(v.Pos, "package-level variable "+v.Global.Name(), "values that depend on the varied inputs are stored into it")
			}
		}
	}
}

func (t *transformer) anyVariedArg(v *ir.Value) bool {
	for _, a := range v.Args {
		if t.act.Varied(a) {
			return true
		}
	}
	return false
}

// available reports whether primal value v can be used anywhere in the
// reverse sweep as it is: a parameter or constant, or a value computed
// once, outside loops, in a block on every path to the return.
func (t *transformer) available(v *ir.Value) bool {
	switch v.Op {
	case ir.OpParam, ir.OpConst:
		return true
	}
	b := v.Block
	if b == nil || !t.cfg.Reachable(b) || !t.cfg.Dominates(b, t.exit) {
		return false
	}
	for h := range t.cfg.Loop {
		if t.cfg.InLoop(t.primal.Blocks[h], b) {
			return false
		}
	}
	return true
}
