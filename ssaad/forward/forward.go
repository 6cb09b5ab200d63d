package forward

// This file defines the forward-mode transformer.

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// Mode is forward mode, //gad:jvp.
type Mode struct{}

// Name implements ssaad.Mode.
func (Mode) Name() string { return "jvp" }

// Suffix implements ssaad.Mode.
func (Mode) Suffix() string { return "JVP" }

// Options implements ssaad.Mode: //gad:jvp takes only wrt=.
func (Mode) Options() []string { return nil }

// Transform implements ssaad.Mode.
func (Mode) Transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env) (*ir.Func, diag.List) {
	t := &transformer{
		primal: primal,
		req:    req,
		env:    env,
		val:    map[*ir.Value]*ir.Value{},
		tan:    map[*ir.Value]*ir.Value{},
		blk:    map[*ir.Block]*ir.Block{},
		calls:  map[*ir.Value]*callInfo{},
	}
	if len(req.Active) != len(primal.Params) {
		t.errorf(primal.Pos, "", "activity of %d parameters for %d", len(req.Active), len(primal.Params))
		return nil, t.errs
	}
	t.act = ssaad.Varied(primal, req.Active, env.Writes)
	if req.Dump != nil {
		req.Dump("activity", t.act.String())
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
	val    map[*ir.Value]*ir.Value // primal value → its copy
	tan    map[*ir.Value]*ir.Value // primal value → its tangent (absent: zero)
	blk    map[*ir.Block]*ir.Block
	calls  map[*ir.Value]*callInfo
	lay    layout // where the JVP's results go
	cur    *ir.Block
	errs   diag.List
}

// callInfo records how the results of a primal call are found in the
// derivative: the value and the tangent of each result.
type callInfo struct {
	vals []*ir.Value
	tans []*ir.Value
}

func (t *transformer) errorf(pos token.Pos, construct, format string, args ...any) {
	var p token.Position
	if t.env != nil {
		p = t.env.Position(pos)
	}
	if !p.IsValid() && t.env != nil {
		p = t.env.Position(t.primal.Pos)
	}
	t.errs.Add(p, ssaad.FuncName(t.req.Target), construct, format, args...)
}

func (t *transformer) run() {
	p, req := t.primal, t.req
	nm := computeNames(req.Target, req.Active)
	f := ir.NewFunc(req.Name, p.Pkg)
	t.F = f
	f.Pos = p.Pos
	f.Doc = docComment(req.Name, req.Target, nm, req.Active, ssaad.ParamWrites(p, t.env.Writes))
	if req.Method {
		f.Recv = p.Params[0].Type
	}
	for i, pv := range p.Params {
		name := pv.Name
		if i < len(nm.params) {
			name = nm.params[i]
		}
		t.val[pv] = f.AddParam(name, pv.Type)
		if req.Active[i] {
			t.tan[pv] = f.AddParam(nm.tangents[i], pv.Type)
		}
	}
	f.Variadic = p.Variadic && !req.Active[len(req.Active)-1]
	t.lay = resultLayout(p.ResultTypes)
	f.ResultNames = make([]string, t.lay.n)
	f.ResultTypes = make([]types.Type, t.lay.n)
	for i, rt := range p.ResultTypes {
		f.ResultNames[t.lay.primal[i]], f.ResultTypes[t.lay.primal[i]] = nm.results[i], rt
		if k := t.lay.tangent[i]; k >= 0 {
			f.ResultNames[k], f.ResultTypes[k] = nm.dresults[i], rt
		}
	}

	// Blocks keep the primal's order (unreachable ones are dropped); values
	// are transformed in reverse postorder, so that definitions come before
	// their uses.
	cfg := ir.NewCFG(p)
	for _, b := range p.Blocks {
		if cfg.Reachable(b) {
			t.blk[b] = f.NewBlock(b.Comment)
		}
	}
	for _, b := range cfg.RPO {
		nb := t.blk[b]
		for _, s := range b.Succs {
			nb.Succs = append(nb.Succs, t.blk[s])
		}
		for _, q := range b.Preds {
			if cfg.Reachable(q) {
				nb.Preds = append(nb.Preds, t.blk[q])
			}
		}
	}

	// Inactive slice parameters through which varied values are stored get
	// a zero shadow of their own.
	entry := t.blk[cfg.RPO[0]]
	t.Cur = entry
	for i, pv := range p.Params {
		if req.Active[i] || !t.act.Varied(pv) {
			continue
		}
		if s := t.ZeroShadow(t.val[pv]); s != nil {
			s.Name = "d" + nm.params[i]
			t.tan[pv] = s
			continue
		}
		t.errorf(p.Pos, "parameter "+nm.params[i], "values that depend on the varied inputs are stored through it; add it to wrt=")
	}

	var phis []*ir.Value
	for _, b := range cfg.RPO {
		t.Cur = t.blk[b]
		for _, v := range b.Instrs {
			if v.Op == ir.OpPhi {
				phis = append(phis, v)
			}
			t.instr(v)
		}
	}
	// Fill φ arguments now that every value has its copy.
	for _, v := range phis {
		nv := t.val[v]
		dv := t.tan[v]
		for i, a := range v.Args {
			if !cfg.Reachable(v.Block.Preds[i]) {
				continue
			}
			nv.Args = append(nv.Args, t.v(a))
			if dv != nil {
				dv.Args = append(dv.Args, t.tangent(a))
			}
		}
	}
}

// v returns the copy of primal value x.
func (t *transformer) v(x *ir.Value) *ir.Value {
	return t.CopyOf(t.val, x, "forward")
}

// tangent returns the tangent of primal value x: a zero constant when x
// has none.
func (t *transformer) tangent(x *ir.Value) *ir.Value {
	if d, ok := t.tan[x]; ok {
		return d
	}
	return t.Zero(x.Type)
}

func (t *transformer) hasTangent(x *ir.Value) bool {
	_, ok := t.tan[x]
	return ok
}

// shadowResult gives the copy nv of primal value v, a result of a call that
// has no derivative, a zero shadow when v is varied memory.
func (t *transformer) shadowResult(v, nv *ir.Value) {
	if !ssaad.IsPointerLike(v.Type) || !t.act.Varied(v) || t.hasTangent(v) {
		return
	}
	s := t.ZeroShadow(nv)
	if s == nil {
		t.errorf(v.Pos, "result of a call", "values that depend on the varied inputs are stored into memory it returns, whose shadow cannot be built")
		return
	}
	if v.Name != "" {
		s.Name = "d" + v.Name
	}
	t.tan[v] = s
}

// clone copies primal value v into the current block with mapped arguments.
func (t *transformer) clone(v *ir.Value) *ir.Value {
	args := make([]*ir.Value, len(v.Args))
	for i, a := range v.Args {
		args[i] = t.v(a)
	}
	nv := t.Emit(v.Op, v.Type, args...)
	nv.Name, nv.Pos, nv.Tok, nv.Const, nv.Index, nv.Heap, nv.Global = v.Name, v.Pos, v.Tok, v.Const, v.Index, v.Heap, v.Global
	if v.Callee != nil {
		c := *v.Callee
		nv.Callee = &c
	}
	t.val[v] = nv
	return nv
}

// setTangent records d as the tangent of primal value v and names it after
// v.
func (t *transformer) setTangent(v, d *ir.Value) {
	if d == nil || ssaad.IsZero(d) {
		return
	}
	if v.Name != "" && d.Name == "" && d.Block != nil {
		d.Name = "d" + v.Name
	}
	t.tan[v] = d
}

func (t *transformer) instr(v *ir.Value) {
	varied := t.act.Varied(v)
	switch v.Op {
	case ir.OpPhi:
		nv := t.Emit(ir.OpPhi, v.Type)
		nv.Name, nv.Pos = v.Name, v.Pos
		t.val[v] = nv
		if varied {
			d := t.Emit(ir.OpPhi, v.Type)
			t.tan[v] = d
			if v.Name != "" {
				d.Name = "d" + v.Name
			}
		}
		return
	case ir.OpCall:
		t.call(v)
		return
	case ir.OpExtract:
		if info := t.calls[v.Args[0]]; info != nil {
			t.val[v] = info.vals[v.Index]
			if v.Name != "" && info.vals[v.Index].Name == "" {
				info.vals[v.Index].Name = v.Name
			}
			if d := info.tans[v.Index]; d != nil {
				t.setTangent(v, d)
			}
			return
		}
		nv := t.clone(v)
		if v.Args[0].Op == ir.OpCall {
			t.shadowResult(v, nv)
		}
		return
	case ir.OpReturn:
		args := make([]*ir.Value, t.lay.n)
		for i, a := range v.Args {
			args[t.lay.primal[i]] = t.v(a)
			if k := t.lay.tangent[i]; k >= 0 {
				args[k] = t.tangent(a)
			}
		}
		r := t.Emit(ir.OpReturn, nil, args...)
		r.Pos = v.Pos
		return
	case ir.OpStore:
		t.clone(v)
		addr, x := v.Args[0], v.Args[1]
		if t.hasTangent(addr) && ssaad.HasFloat(x.Type) {
			t.Same(v, t.tangent(addr), t.tangent(x))
		}
		return
	}

	nv := t.clone(v)
	if !varied {
		return
	}
	tx := func(i int) *ir.Value { return t.tangent(v.Args[i]) }
	switch v.Op {
	case ir.OpBinary:
		x, y := nv.Args[0], nv.Args[1]
		switch v.Tok {
		case token.ADD:
			t.setTangent(v, t.Add(tx(0), tx(1)))
		case token.SUB:
			t.setTangent(v, t.Sub(tx(0), tx(1)))
		case token.MUL:
			t.setTangent(v, t.Add(t.Mul(tx(0), y), t.Mul(x, tx(1))))
		case token.QUO:
			// z = x/y: dz = (dx - z·dy)/y
			t.setTangent(v, t.Quo(t.Sub(tx(0), t.Mul(nv, tx(1))), y))
		default:
			t.errorf(v.Pos, "operator "+v.Tok.String(), "not differentiable on %s", v.Type)
		}
	case ir.OpUnary:
		if v.Tok == token.SUB {
			t.setTangent(v, t.Neg(tx(0)))
		} else {
			t.errorf(v.Pos, "operator "+v.Tok.String(), "not differentiable on %s", v.Type)
		}
	case ir.OpConvert:
		if t.hasTangent(v.Args[0]) && ssaad.HasFloat(v.Args[0].Type) {
			t.setTangent(v, t.Same(v, tx(0)))
		}
	case ir.OpSelect:
		t.setTangent(v, t.Same(v, nv.Args[0], tx(1), tx(2)))
	case ir.OpAlloc, ir.OpMakeSlice:
		d := t.Same(v, nv.Args...)
		if v.Name != "" {
			d.Name = "d" + v.Name
		}
		t.tan[v] = d
	case ir.OpGlobal:
		t.errorf(v.Pos, "package-level variable "+v.Global.Name(), "values that depend on the varied inputs are stored into it")
	case ir.OpLoad, ir.OpField:
		if t.hasTangent(v.Args[0]) {
			t.setTangent(v, t.Same(v, tx(0)))
		}
	case ir.OpFieldAddr:
		if t.hasTangent(v.Args[0]) {
			t.tan[v] = t.Same(v, tx(0))
		}
	case ir.OpIndexAddr, ir.OpIndex:
		if t.hasTangent(v.Args[0]) {
			d := t.Same(v, tx(0), nv.Args[1])
			if v.Op == ir.OpIndex {
				t.setTangent(v, d)
			} else {
				t.tan[v] = d
			}
		}
	case ir.OpSlice:
		if t.hasTangent(v.Args[0]) {
			t.tan[v] = t.Same(v, tx(0), nv.Args[1], nv.Args[2], nv.Args[3])
		}
	case ir.OpLen, ir.OpCap, ir.OpJump, ir.OpIf, ir.OpPanic, ir.OpConst, ir.OpParam:
	default:
		t.errorf(v.Pos, v.Op.String(), "no forward-mode rule")
	}
}
