package taylor

// This file defines the transformer of the forward-propagating modes:
// K coefficients per varied value, the tangent alone in forward mode.

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// Mode is Taylor mode, //gad:taylor order=K [seed=jet|line] [wrt=…],
// or, with Tangent, forward mode, //gad:jvp [wrt=…]: Taylor mode of order
// 1 whose coefficient is the tangent dx.
type Mode struct{ Tangent bool }

// Name implements ssaad.Mode.
func (m Mode) Name() string { return m.pick("jvp", "taylor") }

// Suffix implements ssaad.Mode.
func (m Mode) Suffix() string { return m.pick("JVP", "Taylor") }

// Options implements ssaad.Mode: //gad:jvp takes only wrt=.
func (m Mode) Options() []string {
	if m.Tangent {
		return nil
	}
	return []string{"order", "seed", "lanes"}
}

func (m Mode) pick(tangent, taylor string) string {
	if m.Tangent {
		return tangent
	}
	return taylor
}

// config returns what req asks for.
func (m Mode) config(req *ssaad.Request) (config, error) {
	if m.Tangent {
		c := tangentMode
		c.lanes = req.Options.Lanes     // vector forward mode (internal)
		c.stacked = req.Options.Stacked // stacked directions (internal)
		return c, nil
	}
	return parseOptions(req.Options)
}

// Signature implements ssaad.Mode.
func (m Mode) Signature(req *ssaad.Request) (*types.Signature, error) {
	c, err := m.config(req)
	if err != nil {
		return nil, err
	}
	return signature(req, c)
}

// Transform implements ssaad.Mode.
func (m Mode) Transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env) (*ir.Func, diag.List) {
	c, err := m.config(req)
	if err != nil {
		t := newTransformer(primal, req, env)
		t.errorf(req.Pos, "directive", "%v", err)
		return nil, t.errs
	}
	return transform(primal, req, env, c)
}

func transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env, c config) (*ir.Func, diag.List) {
	if len(req.Active) != len(primal.Params) {
		t := newTransformer(primal, req, env)
		t.errorf(primal.Pos, "", "activity of %d parameters for %d", len(req.Active), len(primal.Params))
		return nil, t.errs
	}
	act := ssaad.VariedWith(primal, req.Active, env.Writes, ssaad.EnvFacts(env))
	if req.Dump != nil {
		req.Dump("activity", act.String())
	}
	// Coefficients of loop-carried values that stay zero (a coefficient
	// the seed makes zero, summed in a loop) are φ-nodes of zeros: find
	// them, and build again with them folded, until there are no more.
	// The probing builds ask for no callee: a callee's jet depends on
	// which coefficients are zero, and only the last build's are wanted.
	// (A callee's JVP does not: forward mode builds without probing.)
	zero := map[phiCoef]bool{}
	for probe := !c.tangent; ; {
		e := env
		if probe {
			e = probeEnv{env}
		}
		t := newTransformer(primal, req, e)
		t.cfg, t.K, t.act, t.zeroPhi = c, c.slots(), act, zero
		t.run()
		if len(t.errs) > 0 {
			return nil, t.errs
		}
		if t.findZeroPhis() {
			continue
		}
		if probe {
			probe = false
			continue
		}
		removeTrivialPhis(t.F)
		return t.F, nil
	}
}

// probeEnv is the Env of a probing build: it names the callees' jets
// without asking the driver to generate them.
type probeEnv struct{ ssaad.Env }

// DerivativeWithOptions implements ssaad.OptionsEnv.
func (p probeEnv) DerivativeWithOptions(mode string, opts ssaad.Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	if mode != "taylor" {
		return nil, fmt.Errorf("probe: mode %s", mode)
	}
	sig, err := Mode{}.Signature(&ssaad.Request{Mode: mode, Target: callee, Active: active, Options: opts})
	if err != nil {
		return nil, err
	}
	return &ir.DerivedFunc{Name: "probe", Sig: sig}, nil
}

// Origins implements ssaad.OriginsEnv with the driver's facts, when it
// has them (nil, unknown, otherwise).
func (p probeEnv) Origins(callee *types.Func) []int {
	if oe, ok := p.Env.(ssaad.OriginsEnv); ok {
		return oe.Origins(callee)
	}
	return nil
}

// StoresMemory implements ssaad.OriginsEnv like Origins (true: unknown).
func (p probeEnv) StoresMemory(callee *types.Func) bool {
	if oe, ok := p.Env.(ssaad.OriginsEnv); ok {
		return oe.StoresMemory(callee)
	}
	return true
}

// FreshStores implements ssaad.OriginsEnv like Origins (false: unknown).
func (p probeEnv) FreshStores(callee *types.Func) bool {
	if oe, ok := p.Env.(ssaad.OriginsEnv); ok {
		return oe.FreshStores(callee)
	}
	return false
}

// phiCoef names coefficient k of a primal φ.
type phiCoef struct {
	phi *ir.Value
	k   int
}

// perLane sets cs, the coefficients of a binary operation's result, from
// the jets a and b of its operands (primal first, then the slots) by op,
// which maps the operands' jets of one direction to the result's
// coefficients 1 … K: once for the K slots, or, with lanes, once per
// lane (see laneJet).
func (t *transformer) perLane(a, b, cs []*ir.Value, op func(a, b []*ir.Value) []*ir.Value) {
	L := t.cfg.lanes
	if L == 0 {
		copy(cs, op(a, b))
		return
	}
	for l := range L {
		for k, c := range op(t.laneJet(a, l), t.laneJet(b, l)) {
			cs[k*L+l] = c
		}
	}
}

// sumLanes returns x, a second-order term of a lane, summed over the
// directions when they are stacked and x is a tensor of them
// (tensorops.SumLanes), else x: with lanes, each lane's term goes into
// the collapsed sum on its own.
func (t *transformer) sumLanes(x *ir.Value) *ir.Value {
	switch {
	case !t.cfg.stacked || ssaad.IsZero(x):
		return x
	case ir.IsTensor(x.Type):
		return t.TensorCall("SumLanes", x)
	case isFloat(x.Type):
		// A float of directions: ssaad.RetypeStacked makes it a tensor
		// of directions, and this sum tensorops.LaneSum.
		s := t.Emit(ir.OpCall, x.Type, x)
		s.Callee = &ir.Callee{Builtin: ir.LaneSumBuiltin}
		return s
	}
	return x
}

// laneJet returns the jet of lane l (from 0) of x, the primal then the
// slots: with L lanes, slot (k−1)·L + l holds coefficient k of lane l
// (the first coefficients of all lanes come first, as a line seed
// takes them).
func (t *transformer) laneJet(x []*ir.Value, l int) []*ir.Value {
	L, K := t.cfg.lanes, t.cfg.order
	jet := []*ir.Value{x[0]}
	for k := range K {
		jet = append(jet, x[1+k*L+l])
	}
	return jet
}

// cauchy returns the coefficients 1 … K of the product of the jets a and
// b (primal first): c_k = Σ_{j=k..0} a_j·b_{k-j}, the Cauchy product (at
// k = 1 the product rule, da·b + a·db).
func (t *transformer) cauchy(typ types.Type, a, b []*ir.Value) []*ir.Value {
	K := len(a) - 1
	cs := make([]*ir.Value, K)
	for k := 1; k <= K; k++ {
		s := t.Zero(typ)
		for j := k; j >= 0; j-- {
			s = t.Add(s, t.Mul(a[j], b[k-j]))
		}
		cs[k-1] = s
	}
	return cs
}

// quotient returns the coefficients 1 … K of c = a/b, c0 the primal
// quotient: c_k = (a_k − Σ_{j=1..k} c_{k-j}·b_j) / b_0.
func (t *transformer) quotient(c0 *ir.Value, a, b []*ir.Value) []*ir.Value {
	K := len(a) - 1
	c := make([]*ir.Value, K+1)
	c[0] = c0
	for k := 1; k <= K; k++ {
		s := a[k]
		for j := 1; j <= k; j++ {
			s = t.Sub(s, t.Mul(c[k-j], b[j]))
		}
		c[k] = t.Quo(s, b[0])
	}
	return c[1:]
}

// findZeroPhis adds to t.zeroPhi the float coefficient φs of this build
// whose arguments are all zero, themselves, or such φs, and reports
// whether it found any.
func (t *transformer) findZeroPhis() bool {
	isZero := map[*ir.Value]bool{}
	for _, p := range t.coefPhis {
		isZero[p.phi] = true // optimistic, refined below
	}
	for changed := true; changed; {
		changed = false
		for _, p := range t.coefPhis {
			if !isZero[p.phi] {
				continue
			}
			for _, a := range p.phi.Args {
				if a != p.phi && !ssaad.IsZero(a) && !isZero[a] {
					isZero[p.phi] = false
					changed = true
					break
				}
			}
		}
	}
	found := false
	for _, p := range t.coefPhis {
		if isZero[p.phi] {
			t.zeroPhi[p.key] = true
			found = true
		}
	}
	return found
}

type transformer struct {
	ssaad.Builder
	primal *ir.Func
	req    *ssaad.Request
	env    ssaad.Env
	cfg    config
	K      int
	act    *ssaad.Activity
	val    map[*ir.Value]*ir.Value   // primal value → its copy
	tan    map[*ir.Value][]*ir.Value // primal value → its coefficients 1…K (absent: zero)
	blk    map[*ir.Block]*ir.Block
	calls  map[*ir.Value]*callInfo
	// Coefficient shadows may be the constant zero (seed=line): reads
	// through them fold to zero; any other use materializes them (see
	// usable).
	lay  layout
	errs diag.List
	// zeroPhi lists the coefficients of φs known to stay zero (see
	// Transform); coefPhis records the float coefficient φs built.
	zeroPhi map[phiCoef]bool
	// primalCalls shares the primal calls of math functions that several
	// expansions of one instruction need (collapsed mode), by function
	// and arguments.
	primalCalls map[string]*ir.Value
	// dirs is a tensor of directions of a lanes=stacked function's
	// inputs (config.stackedIO), marked.
	dirs     *ir.Value
	coefPhis []struct {
		key phiCoef
		phi *ir.Value
	}
}

// callInfo records the values and coefficients of the results of a
// primal call with several results.
type callInfo struct {
	vals  []*ir.Value
	coefs [][]*ir.Value
}

func newTransformer(primal *ir.Func, req *ssaad.Request, env ssaad.Env) *transformer {
	return &transformer{
		primal: primal, req: req, env: env,
		val:   map[*ir.Value]*ir.Value{},
		tan:   map[*ir.Value][]*ir.Value{},
		blk:   map[*ir.Block]*ir.Block{},
		calls: map[*ir.Value]*callInfo{},
	}
}

func (t *transformer) errorf(pos token.Pos, construct, format string, args ...any) {
	var p token.Position
	if t.env != nil {
		p = t.env.Position(pos)
		if !p.IsValid() {
			p = t.env.Position(t.primal.Pos)
		}
	}
	t.errs.Add(p, ssaad.FuncName(t.req.Target), construct, format, args...)
}

func (t *transformer) run() {
	p, req := t.primal, t.req
	nm := computeNames(req.Target, req.Active, t.cfg)
	writes := ssaad.ParamWrites(p, t.env.Writes, ssaad.EnvFacts(t.env))
	f := ir.NewFunc(req.Name, p.Pkg)
	t.F = f
	f.Pos = p.Pos
	f.Doc = docComment(req.Name, req.Target, nm, req.Active, writes, t.cfg)
	if req.Options.NoResultCoefs {
		f.Doc += "\nThe coefficients of the results are not computed (returned as zero): the caller reads none."
	}
	if req.Method {
		f.Recv = p.Params[0].Type
	}
	line := t.params(nm, writes)
	t.resultLayout(nm)
	cfg := ir.NewCFG(p)
	t.blocks(cfg)
	if !t.entry(nm, line) {
		return
	}
	t.body(cfg)
}

// lineParam is a varied parameter, the i-th, that the function writes
// through (what seed=line cannot give all coefficients of).
type lineParam struct {
	pv *ir.Value
	i  int
}

// params adds the generated function's parameters: each primal one, then
// its coefficients if it is varied (marked as directions when stacked);
// it returns the varied slices and pointers written through, with
// seed=line.
func (t *transformer) params(nm *names, writes []bool) []lineParam {
	p, req, K, f := t.primal, t.req, t.K, t.F
	var line []lineParam
	for i, pv := range p.Params {
		name := pv.Name
		if i < len(nm.params) {
			name = nm.params[i]
		}
		t.val[pv] = f.AddParam(name, pv.Type)
		if req.Options.Scratch&(1<<i) != 0 {
			// The caller does not read this memory after the call
			// (ssaad.Options.Scratch).
			for len(f.Scratch) < len(f.Params)-1 {
				f.Scratch = append(f.Scratch, false)
			}
			f.Scratch = append(f.Scratch, true)
		}
		if req.Active[i] {
			cs := make([]*ir.Value, K)
			for k := range nm.coefs[i] {
				cs[k] = f.AddParam(nm.coefs[i][k], pv.Type)
			}
			for k := len(nm.coefs[i]); k < K; k++ {
				if !mixedValue(pv.Type) {
					cs[k] = t.Zero(pv.Type)
				}
				// else a zero of pv's shape, made in the entry block below
			}
			t.tan[pv] = cs
			if t.cfg.line && ssaad.IsPointerLike(pv.Type) && (writes == nil || writes[i]) {
				line = append(line, lineParam{pv, i})
			}
		}
	}
	f.Lanes = t.cfg.paramLanes(nm, req.Active)
	return line
}

// resultLayout lays out the generated function's results: each primal
// one, then its coefficients.
func (t *transformer) resultLayout(nm *names) {
	p, req, K, f := t.primal, t.req, t.K, t.F
	f.Variadic = p.Variadic && !req.Active[len(req.Active)-1]
	t.lay = resultLayout(p.ResultTypes, K)
	f.ResultTypes = make([]types.Type, t.lay.n)
	f.ResultNames = make([]string, t.lay.n)
	f.ResultLanes = t.cfg.resultLanes(t.lay, len(p.ResultTypes))
	for i, rt := range p.ResultTypes {
		f.ResultNames[t.lay.primal[i]], f.ResultTypes[t.lay.primal[i]] = nm.results[i], rt
		if c := t.lay.coef[i]; c >= 0 {
			for k := 0; k < K; k++ {
				f.ResultTypes[c+k] = t.cfg.coefType(req.Target, rt)
				if nm.rcoefs[i] != nil {
					f.ResultNames[c+k] = nm.rcoefs[i][k]
				}
			}
		}
	}
}

// blocks makes a block of the generated function for each reachable block
// of the primal, with the same edges, and starts at the entry's.
func (t *transformer) blocks(cfg *ir.CFG) {
	p, f := t.primal, t.F
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
	t.Cur = t.blk[cfg.RPO[0]]
}

// entry emits, in the entry block, what the coefficients of the
// parameters need before the body (zero coefficients of the inputs'
// shapes, tangent structs grown, stacked directions marked, zero shadows
// of fixed parameters stored through); it reports false, with an error,
// where the request cannot be met.
func (t *transformer) entry(nm *names, line []lineParam) bool {
	p, req, K := t.primal, t.req, t.K
	// With seed=line, a varied slice or pointer that the function writes
	// through would return only its first coefficient: refuse.
	for _, lp := range line {
		t.errorf(t.req.Pos, "parameter "+nm.params[lp.i], "%s writes through it, so a line-seeded jet (seed=line, as the second-order helpers use) would lose the coefficients of degree 2 to %d of what it writes; use seed=jet", ssaad.FuncName(t.req.Target), K)
	}
	if len(line) > 0 {
		return false
	}
	// With seed=line, the zero coefficients of a struct or array that
	// holds slices have slices of the input's lengths: the function may
	// index them.
	for i, pv := range p.Params {
		for k, c := range t.tan[pv] {
			if c != nil {
				continue
			}
			z := t.ZeroShadowOfValue(t.val[pv])
			if z == nil {
				t.errorf(p.Pos, "parameter "+nm.params[i], "seed=line needs zero coefficients of the shape of %s, which gadgen cannot build for its type yet; use seed=jet", nm.params[i])
				return false
			}
			z.Name = t.cfg.name(nm.params[i], k+1)
			t.tan[pv][k] = z
		}
	}
	// The caller's tangent structs need no sizing: their slices are grown
	// to the primal's lengths (nil tensors and zeros: zero tangents).
	// A struct by value is grown in a copy, which stands for it.
	for i, pv := range p.Params {
		if !req.Active[i] {
			continue
		}
		_, isStruct := pv.Type.Underlying().(*types.Struct)
		for k, c := range t.tan[pv] {
			switch {
			case c == nil || c.Op != ir.OpParam:
			case ssaad.IsStructPointer(pv.Type):
				t.GrowShadow(t.val[pv], c)
			case isStruct && ssaad.HoldsPointers(pv.Type):
				tmp := t.Emit(ir.OpAlloc, types.NewPointer(pv.Type))
				t.Emit(ir.OpStore, nil, tmp, c)
				t.GrowShadow(t.val[pv], tmp)
				g := t.Emit(ir.OpLoad, pv.Type, tmp)
				g.Name = c.Name
				t.tan[pv][k] = g
			}
		}
	}
	// lanes=stacked: the caller's directions, plain tensors [L, …], are
	// marked (tensorops.Lanes); t.dirs keeps one, whose L the results'
	// unmarking reads.
	if t.cfg.stackedIO {
		for i, pv := range p.Params {
			if !req.Active[i] {
				continue
			}
			for k, c := range t.tan[pv] {
				switch {
				case c == nil || c.Op != ir.OpParam:
				case ir.IsTensor(c.Type):
					m := t.TensorCall("Lanes", c)
					t.tan[pv][k] = m
					if t.dirs == nil {
						t.dirs = m
					}
				default:
					t.errorf(p.Pos, "parameter "+nm.params[i], "lanes=stacked takes the directions of tensors; %s is a %s", nm.params[i], pv.Type)
					return false
				}
			}
		}
		if t.dirs == nil {
			t.errorf(p.Pos, "", "lanes=stacked needs a varied tensor")
			return false
		}
	}
	// Inactive parameters through which varied values are stored get zero
	// shadows of their own.
	for i, pv := range p.Params {
		if req.Active[i] || !t.act.Varied(pv) {
			continue
		}
		cs := make([]*ir.Value, K)
		for k := range cs {
			s := t.ZeroShadow(t.val[pv])
			if s == nil {
				t.errorf(p.Pos, "parameter "+nm.params[i], "values that depend on the varied inputs are stored through it; add it to wrt=")
				return false
			}
			s.Name = t.cfg.name(nm.params[i], k+1)
			cs[k] = s
		}
		t.tan[pv] = cs
	}

	return true
}

// body transforms the primal's instructions block by block, then fills
// the φs' arguments and those of their coefficients.
func (t *transformer) body(cfg *ir.CFG) {
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
	for _, v := range phis {
		nv := t.val[v]
		ds := t.tan[v]
		for i, a := range v.Args {
			pred := v.Block.Preds[i]
			if !cfg.Reachable(pred) {
				continue
			}
			nv.Args = append(nv.Args, t.v(a))
			if ds != nil {
				cs := t.coefs(a)
				for k := range ds {
					if ds[k].Op != ir.OpPhi {
						continue // a coefficient known to stay zero
					}
					c := cs[k]
					if ssaad.IsPointerLike(c.Type) && ssaad.IsZero(c) {
						c = t.materializeIn(t.blk[pred], t.v(a))
					}
					ds[k].Args = append(ds[k].Args, c)
				}
			}
		}
	}
}

// v returns the copy of primal value x.
func (t *transformer) v(x *ir.Value) *ir.Value {
	return t.CopyOf(t.val, x, "taylor")
}

// coefs returns the coefficients 1…K of primal value x (zero constants
// where it has none). The slice is fresh.
func (t *transformer) coefs(x *ir.Value) []*ir.Value {
	cs := make([]*ir.Value, t.K)
	if d, ok := t.tan[x]; ok {
		copy(cs, d)
		return cs
	}
	for k := range cs {
		cs[k] = t.Zero(x.Type)
	}
	return cs
}

// jet returns the primal copy of x followed by its coefficients.
func (t *transformer) jet(x *ir.Value) []*ir.Value {
	return append([]*ir.Value{t.v(x)}, t.coefs(x)...)
}

func (t *transformer) hasCoefs(x *ir.Value) bool {
	_, ok := t.tan[x]
	return ok
}

// usable returns the coefficients of x as values that any operation may
// use: zero shadows are materialized.
func (t *transformer) usable(x *ir.Value) []*ir.Value {
	cs := t.coefs(x)
	for k, c := range cs {
		if ssaad.IsPointerLike(c.Type) && ssaad.IsZero(c) && t.hasCoefs(x) {
			cs[k] = t.materialize(t.v(x))
		}
	}
	return cs
}

// materialize returns a fresh zero shadow for the pointer-like copy nv
// in the current block.
func (t *transformer) materialize(nv *ir.Value) *ir.Value {
	if ssaad.IsZero(nv) {
		return nv // the shadow of nil is nil
	}
	s := t.ZeroShadow(nv)
	if s == nil {
		panic(fmt.Sprintf("taylor: cannot materialize a zero shadow of type %s", nv.Type))
	}
	return s
}

// materializeIn is materialize at the end of block b, before its
// terminator.
func (t *transformer) materializeIn(b *ir.Block, nv *ir.Value) *ir.Value {
	saved := t.Cur
	tmp := t.F.NewBlock("tmp")
	t.Cur = tmp
	s := t.materialize(nv)
	t.Cur = saved
	t.F.Blocks = t.F.Blocks[:len(t.F.Blocks)-1]
	at := len(b.Instrs)
	if b.Terminator() != nil {
		at--
	}
	for _, v := range tmp.Instrs {
		b.Insert(at, v)
		at++
	}
	return s
}

// setCoefs records cs as the coefficients of v, unless all are zero, and
// names them after v.
func (t *transformer) setCoefs(v *ir.Value, cs []*ir.Value) {
	all0 := true
	for _, c := range cs {
		all0 = all0 && ssaad.IsZero(c)
	}
	if all0 {
		return
	}
	t.nameCoefs(v, cs)
	t.tan[v] = cs
}

func (t *transformer) nameCoefs(v *ir.Value, cs []*ir.Value) {
	if v.Name == "" {
		return
	}
	for k, c := range cs {
		if c.Name == "" && c.Block != nil {
			c.Name = t.cfg.name(v.Name, k+1)
		}
	}
}

// shadowResult gives v, a pointer-like result of a call without
// derivative into which varied values are stored, zero shadows.
func (t *transformer) shadowResult(v, nv *ir.Value) {
	if !ssaad.IsPointerLike(v.Type) || !t.act.Varied(v) || t.hasCoefs(v) {
		return
	}
	cs := make([]*ir.Value, t.K)
	for k := range cs {
		s := t.ZeroShadow(nv)
		if s == nil {
			t.errorf(v.Pos, "result of a call", "values that depend on the varied inputs are stored into memory it returns, whose shadow cannot be built")
			return
		}
		cs[k] = s
	}
	t.nameCoefs(v, cs)
	t.tan[v] = cs
}

func (t *transformer) clone(v *ir.Value) *ir.Value {
	args := make([]*ir.Value, len(v.Args))
	for i, a := range v.Args {
		args[i] = t.v(a)
	}
	nv := t.Emit(v.Op, v.Type, args...)
	nv.Name, nv.Pos, nv.Tok, nv.Const, nv.Index, nv.Heap, nv.Global = v.Name, v.Pos, v.Tok, v.Const, v.Index, v.Heap, v.Global
	nv.Adjoint = v.Adjoint
	if v.Callee != nil {
		c := *v.Callee
		nv.Callee = &c
	}
	t.val[v] = nv
	return nv
}

// isFloat reports whether typ is a float type.
func isFloat(typ types.Type) bool {
	if ir.IsTensor(typ) {
		return true
	}
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func (t *transformer) instr(v *ir.Value) {
	varied := t.act.Varied(v)
	switch v.Op {
	case ir.OpPhi:
		t.phi(v, varied)
	case ir.OpCall:
		t.call(v)
	case ir.OpExtract:
		t.extract(v)
	case ir.OpReturn:
		t.ret(v)
	case ir.OpStore:
		t.store(v)
	default:
		t.operation(v, varied)
	}
}

// operation copies v, any other operation, and sets its coefficients
// when it is varied.
func (t *transformer) operation(v *ir.Value, varied bool) {
	nv := t.clone(v)
	if !varied {
		return
	}
	K := t.K
	switch v.Op {
	case ir.OpBinary:
		t.binary(v, nv)
	case ir.OpUnary:
		if v.Tok != token.SUB {
			t.errorf(v.Pos, "operator "+v.Tok.String(), "not differentiable on %s", v.Type)
			return
		}
		cs := t.coefs(v.Args[0])
		for k := range cs {
			cs[k] = t.Neg(cs[k])
		}
		t.setCoefs(v, cs)
	case ir.OpConvert:
		if t.hasCoefs(v.Args[0]) && ssaad.HasFloat(v.Args[0].Type) {
			t.setCoefs(v, t.each(v, t.usable(v.Args[0])))
		}
	case ir.OpSelect:
		xs, ys := t.usable(v.Args[1]), t.usable(v.Args[2])
		cs := make([]*ir.Value, K)
		for k := range cs {
			if ssaad.IsZero(xs[k]) && ssaad.IsZero(ys[k]) && !ssaad.IsPointerLike(v.Type) {
				cs[k] = xs[k]
				continue
			}
			cs[k] = t.Same(v, nv.Args[0], xs[k], ys[k])
		}
		t.setCoefs(v, cs)
	case ir.OpAlloc, ir.OpMakeSlice:
		cs := make([]*ir.Value, K)
		for k := range cs {
			cs[k] = t.Same(v, nv.Args...)
		}
		t.nameCoefs(v, cs)
		t.tan[v] = cs
	case ir.OpGlobal:
		t.errorf(v.Pos, "package-level variable "+v.Global.Name(), "values that depend on the varied inputs are stored into it")
	case ir.OpLoad, ir.OpField:
		if t.hasCoefs(v.Args[0]) {
			t.setCoefs(v, t.each(v, t.coefs(v.Args[0])))
		}
	case ir.OpFieldAddr, ir.OpIndexAddr, ir.OpIndex, ir.OpSlice:
		if !t.hasCoefs(v.Args[0]) {
			return
		}
		cs := t.coefs(v.Args[0])
		for k := range cs {
			if ssaad.IsZero(cs[k]) {
				// A zero shadow: so is the part.
				cs[k] = t.Zero(v.Type)
				continue
			}
			args := append([]*ir.Value{cs[k]}, nv.Args[1:]...)
			cs[k] = t.Same(v, args...)
		}
		if v.Op == ir.OpIndex || !ssaad.IsPointerLike(v.Type) {
			t.setCoefs(v, cs)
		} else {
			t.nameCoefs(v, cs)
			t.tan[v] = cs
		}
	case ir.OpLen, ir.OpCap, ir.OpJump, ir.OpIf, ir.OpPanic, ir.OpConst, ir.OpParam:
	default:
		t.errorf(v.Pos, v.Op.String(), "no %s rule", t.cfg.mode())
	}
}

// phi copies φ v, and gives it φs of coefficients when it is varied
// (zero ones for those the analysis found zero on every edge).
func (t *transformer) phi(v *ir.Value, varied bool) {
	K := t.K
	nv := t.Emit(ir.OpPhi, v.Type)
	nv.Name, nv.Pos = v.Name, v.Pos
	t.val[v] = nv
	if varied {
		cs := make([]*ir.Value, K)
		float := isFloat(v.Type)
		all0 := true
		for k := range cs {
			key := phiCoef{v, k}
			if float && t.zeroPhi[key] {
				cs[k] = t.Zero(v.Type)
				continue
			}
			all0 = false
			cs[k] = t.Emit(ir.OpPhi, v.Type)
			if float {
				t.coefPhis = append(t.coefPhis, struct {
					key phiCoef
					phi *ir.Value
				}{key, cs[k]})
			}
		}
		if !all0 {
			t.nameCoefs(v, cs)
			t.tan[v] = cs
		}
	}
}

// extract takes element v.Index of a tuple: of a call transformed (its
// value and coefficients), or of another tuple.
func (t *transformer) extract(v *ir.Value) {
	if info := t.calls[v.Args[0]]; info != nil {
		t.val[v] = info.vals[v.Index]
		if v.Name != "" && info.vals[v.Index].Name == "" {
			info.vals[v.Index].Name = v.Name
		}
		if cs := info.coefs[v.Index]; cs != nil {
			t.setCoefs(v, cs)
		}
		return
	}
	nv := t.clone(v)
	if v.Args[0].Op == ir.OpCall {
		t.shadowResult(v, nv)
	}
}

// ret returns the primal's results and their coefficients, in the layout
// of the generated signature (t.lay), each in the form the options ask
// for (zero when not read, a tensor of directions, a plain tensor with
// lanes=stacked).
func (t *transformer) ret(v *ir.Value) {
	K := t.K
	args := make([]*ir.Value, t.lay.n)
	for i, a := range v.Args {
		args[t.lay.primal[i]] = t.v(a)
		if c := t.lay.coef[i]; c >= 0 {
			if t.req.Options.NoResultCoefs {
				// Not read (ssaad.Options.NoResultCoefs): zero, and
				// what only they needed goes.
				for k := 0; k < K; k++ {
					args[c+k] = t.Zero(a.Type)
				}
				continue
			}
			cs := t.usable(a)
			for k := 0; k < K; k++ {
				if t.req.Options.NoScalarCoefs && isFloat(a.Type) && !ir.IsTensor(a.Type) && t.cfg.laneCoef(k) {
					// A scalar per direction, not read
					// (ssaad.Options.NoScalarCoefs): zero.
					args[c+k] = t.Zero(a.Type)
					continue
				}
				if ct := t.cfg.coefType(t.req.Target, a.Type); ct != a.Type {
					// A scalar per direction, returned as the tensor
					// of directions it stands for
					// (ssaad.Options.ScalarLanes).
					if ssaad.IsZero(cs[k]) {
						args[c+k] = t.Zero(ct)
					} else {
						lt := t.Emit(ir.OpCall, ct, cs[k])
						lt.Callee = &ir.Callee{Builtin: ir.LaneTensorBuiltin}
						args[c+k] = lt
					}
					if t.cfg.stackedIO {
						// lanes=stacked: a plain tensor [L].
						args[c+k] = t.TensorCall("UnlanesScalars", args[c+k], t.dirs)
					}
					continue
				}
				if t.cfg.stackedIO {
					// lanes=stacked: the caller receives plain
					// tensors [L, …].
					if !ir.IsTensor(a.Type) {
						t.errorf(v.Pos, "result", "lanes=stacked returns the coefficients of floats and tensors; a result is a %s", a.Type)
						return
					}
					args[c+k] = t.TensorCall("UnlanesOf", cs[k], t.dirs)
					continue
				}
				args[c+k] = cs[k]
				// A slice or pointer result with no coefficients (a
				// slice made from constants) returns zero ones of its
				// shape, which the caller may index.
				if ssaad.IsPointerLike(cs[k].Type) && ssaad.IsZero(cs[k]) && !ssaad.IsZero(t.v(a)) {
					if z := t.ZeroShadow(t.v(a)); z != nil {
						args[c+k] = z
					}
				}
			}
		}
	}
	r := t.Emit(ir.OpReturn, nil, args...)
	r.Pos = v.Pos
}

// store copies store v, and stores each coefficient of the value through
// the address's shadow of that coefficient.
func (t *transformer) store(v *ir.Value) {
	t.clone(v)
	addr, x := v.Args[0], v.Args[1]
	if t.hasCoefs(addr) && ssaad.HasFloat(x.Type) {
		as, xs := t.coefs(addr), t.usable(x)
		if !t.hasCoefs(x) && ssaad.HoldsPointers(x.Type) {
			// A fixed struct that holds slices, stored where varied
			// values go: its zero coefficients need slices of its
			// lengths, which the function may index.
			for k := range xs {
				if ssaad.IsZero(as[k]) {
					continue
				}
				if xs[k] = t.ZeroShadowOfValue(t.v(x)); xs[k] == nil {
					t.errorf(v.Pos, "store", "a fixed value of type %s is stored where varied values go; add it to wrt=", x.Type)
					return
				}
			}
		}
		for k := range as {
			if ssaad.IsZero(as[k]) {
				if !ssaad.IsZero(xs[k]) {
					panic("taylor: store of a nonzero coefficient through a zero shadow")
				}
				continue
			}
			t.Same(v, as[k], xs[k])
		}
	}
}

// binary sets the coefficients of v, a varied +, −, × or ÷ (copied as nv):
// sums and differences coefficient by coefficient, products and quotients
// by Cauchy's and the quotient's recurrences (collapsed: the directions'
// second-order terms summed).
func (t *transformer) binary(v, nv *ir.Value) {
	K := t.K
	a, b := t.jet(v.Args[0]), t.jet(v.Args[1])
	a[0], b[0] = nv.Args[0], nv.Args[1]
	cs := make([]*ir.Value, K)
	switch v.Tok {
	case token.ADD:
		for k := range cs {
			cs[k] = t.Add(a[k+1], b[k+1])
		}
	case token.SUB:
		for k := range cs {
			cs[k] = t.Sub(a[k+1], b[k+1])
		}
	case token.MUL:
		if L := t.cfg.lanes; t.cfg.collapsed() {
			// Collapsed: c1_l = a0·b1_l + a1_l·b0;
			// C2 = a0·B2 + A2·b0 + Σ_l a1_l·b1_l
			for l := 1; l <= L; l++ {
				cs[l-1] = t.Add(t.Mul(a[0], b[l]), t.Mul(a[l], b[0]))
			}
			s := t.Add(t.Mul(a[0], b[L+1]), t.Mul(a[L+1], b[0]))
			for l := 1; l <= L; l++ {
				s = t.Add(s, t.sumLanes(t.Mul(a[l], b[l])))
			}
			cs[L] = s
			break
		}
		t.perLane(a, b, cs, func(a, b []*ir.Value) []*ir.Value { return t.cauchy(v.Type, a, b) })
	case token.QUO:
		if L := t.cfg.lanes; t.cfg.collapsed() {
			// Collapsed: c1_l = (a1_l − c0·b1_l)/b0;
			// C2 = (A2 − c0·B2 − Σ_l b1_l·c1_l)/b0
			for l := 1; l <= L; l++ {
				cs[l-1] = t.Quo(t.Sub(a[l], t.Mul(nv, b[l])), b[0])
			}
			s := t.Sub(a[L+1], t.Mul(nv, b[L+1]))
			for l := 1; l <= L; l++ {
				s = t.Sub(s, t.sumLanes(t.Mul(b[l], cs[l-1])))
			}
			cs[L] = t.Quo(s, b[0])
			break
		}
		t.perLane(a, b, cs, func(a, b []*ir.Value) []*ir.Value { return t.quotient(nv, a, b) })
	default:
		t.errorf(v.Pos, "operator "+v.Tok.String(), "not differentiable on %s", v.Type)
		return
	}
	t.setCoefs(v, cs)
}

// each applies v's operation to each coefficient in cs (in place): a
// zero stays zero.
func (t *transformer) each(v *ir.Value, cs []*ir.Value) []*ir.Value {
	for k := range cs {
		if ssaad.IsZero(cs[k]) {
			cs[k] = t.Zero(v.Type)
		} else {
			cs[k] = t.Same(v, cs[k])
		}
	}
	return cs
}

// mixedValue reports whether typ is a struct or array, not a pointer or
// slice, that holds slices or pointers: its zero coefficient is not the
// zero value but a value of the same shape.
func mixedValue(typ types.Type) bool {
	return !ssaad.IsPointerLike(typ) && ssaad.HoldsPointers(typ)
}
