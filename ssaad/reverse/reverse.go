package reverse

// This file defines the reverse-mode transformer.

import (
	"errors"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// Mode is reverse mode: //gad:grad, or with Seeded, //gad:vjp.
type Mode struct {
	// Seeded: the generated function takes the adjoint of the result (the
	// seed) as its last parameter instead of assuming 1; it computes a
	// vector-Jacobian product. Reverse mode calls the seeded derivatives
	// of the functions a function calls.
	Seeded bool
	// Callee is the variant of //gad:vjp that reverse mode calls for the
	// functions a function calls (mode "reverse", suffix Reverse; no
	// directive names it). It computes the same vector-Jacobian product
	// and results, but the memory its slice and pointer parameters point
	// to is left in no particular state: the caller's reverse sweep never
	// reads it again (what it reads, it saved), so stores into it that the
	// VJP itself does not read back are dropped (see ir.Func.Scratch).
	Callee bool
	// Split is the variant for calls reversed by split reversal (see
	// split.go, mode "split", suffix Split): the callee's forward sweep,
	// which returns its results and, as a closure, its reverse sweep.
	Split bool
}

// Name implements ssaad.Mode.
func (m Mode) Name() string {
	switch {
	case m.Split:
		return SplitMode
	case m.Callee:
		return CalleeMode
	case m.Seeded:
		return "vjp"
	}
	return "grad"
}

// CalleeMode is the name of the Callee variant.
const CalleeMode = "reverse"

// SplitMode is the name of the Split variant.
const SplitMode = "split"

// Internal reports whether no directive may name the mode.
func (m Mode) Internal() bool { return m.Callee || m.Split }

// Suffix implements ssaad.Mode.
func (m Mode) Suffix() string {
	switch {
	case m.Split:
		return "Split"
	case m.Callee:
		return "Reverse"
	case m.Seeded:
		return "VJP"
	}
	return "Grad"
}

// Options implements ssaad.Mode: besides wrt=, //gad:grad takes gonum=true,
// which generates the gradient in gonum/optimize's shape instead:
// func(grad, x []float64), overwriting grad (see gonumShape); //gad:grad
// and //gad:vjp take checkpoint=C, binomial checkpointing of loops (see
// revolve.go).
func (m Mode) Options() []string {
	switch {
	case m.Callee || m.Split:
		return nil
	case m.Seeded:
		return []string{"checkpoint", "value"}
	}
	return []string{"checkpoint", "gonum", "value"}
}

// gonumShape reports whether req asks for the gradient in gonum/optimize's
// shape, and checks that the function has it: one varied []float64
// parameter (besides a receiver, for a method) and one float64 result.
func gonumShape(req *ssaad.Request) (bool, error) {
	if !req.Options.Gonum {
		return false, nil
	}
	ps := ssaad.Params(req.Target)
	sig := req.Target.Type().(*types.Signature)
	first := 0
	if sig.Recv() != nil {
		first = 1
	}
	f64 := types.Typ[types.Float64]
	if len(ps)-first != 1 || !types.Identical(ps[first].Type(), types.NewSlice(f64)) || !req.Active[first] ||
		sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), f64) {
		msg := "gonum=true needs a function of one []float64 parameter returning float64 (a method's receiver aside), the shape of gonum/optimize's Problem.Func"
		if len(ps)-first > 1 {
			// Data beside the parameters: a method of a struct holding
			// the data has the shape, as its method value.
			msg += ": put the other parameters (the data) in a struct and make the function its method; the gradient's method value then has gonum's shape"
		}
		return false, errors.New(msg)
	}
	return true, nil
}

var (
	intType   = types.Typ[types.Int]
	boolType  = types.Typ[types.Bool]
	float64T  = types.Typ[types.Float64]
	stepConst = constant.MakeInt64(1)
)

// Transform implements ssaad.Mode.
func (m Mode) Transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env) (*ir.Func, diag.List) {
	if m.Split {
		m.Callee = true
	}
	if m.Callee {
		m.Seeded = true
	}
	t := &transformer{
		seeded:           m.Seeded,
		callee:           m.Callee,
		split:            m.Split,
		splitCalls:       map[*ir.Value]bool{},
		backs:            map[*ir.Value]*ir.Value{},
		splitShadows:     map[*ir.Value]map[int]*ir.Value{},
		primal:           primal,
		req:              req,
		env:              env,
		val:              map[*ir.Value]*ir.Value{},
		shadow:           map[*ir.Value]*ir.Value{},
		slot:             map[*ir.Value]*ir.Value{},
		tapes:            map[string]*ir.Value{},
		firstTrips:       map[*ir.Block]*firstTrip{},
		reservedAhead:    map[*ir.Block]bool{},
		tapeBlocks:       map[string]map[*ir.Block]bool{},
		readBeforeMemo:   map[*ir.Value]bool{},
		finalTapes:       map[string]*ir.Value{},
		fwd:              map[*ir.Block]*ir.Block{},
		fwdLast:          map[*ir.Block]*ir.Block{},
		rev:              map[*ir.Block]*ir.Block{},
		rvals:            map[*ir.Value]*ir.Value{},
		pend:             map[*ir.Value]*ir.Value{},
		recompute:        map[*ir.Value]bool{},
		markRound:        map[*ir.Value]int{},
		backEdge:         map[*ir.Block]bool{},
		writtenAfterMemo: map[writtenKey]bool{},
		freshMemo:        map[int]*ir.Block{},
		restored:         map[int]bool{},
		iterVar:          map[*ir.Value]*ir.Value{},
		iterShadowVar:    map[*ir.Value]*ir.Value{},
		spill:            map[*ir.Value]*ir.Value{},
		rshadow:          map[*ir.Value]*ir.Value{},
		phiShadowSpill:   map[*ir.Value]*ir.Value{},
		readOnly:         map[*ir.Value]bool{},
		groupRecords:     map[recordKey]*record{},
	}
	if len(req.Active) != len(primal.Params) {
		t.errorf(primal.Pos, "", "activity of %d parameters for %d", len(req.Active), len(primal.Params))
		return nil, t.errs
	}
	gonum, err := gonumShape(req)
	if err != nil {
		t.errorf(primal.Pos, "directive", "%v", err)
		return nil, t.errs
	}
	t.gonum = gonum
	noValue := m.noValue(req)
	t.noValue = noValue || gonum
	if _, err := signature(req.Target, req.Active, req.Method, m.Seeded, noValue); err != nil {
		t.errorf(primal.Pos, "", "%v", err)
		return nil, t.errs
	}
	singleReturn(primal)
	addTupleExtracts(primal)
	replaced := addReplacedLoads(primal)
	for _, b := range primal.Blocks {
		if term := b.Terminator(); term != nil && term.Op == ir.OpReturn {
			t.exit = b
		}
	}
	t.act = ssaad.VariedWith(primal, req.Active, env.Writes, ssaad.EnvFacts(env))
	if req.Dump != nil {
		req.Dump("activity", t.act.String())
	}
	t.replaced = t.dropReplacedLoads(replaced)
	t.cfg = ir.NewCFG(primal)
	t.classWritten = map[int]bool{}
	for _, b := range primal.Blocks {
		for _, v := range b.Instrs {
			switch {
			case v.Op == ir.OpStore:
				t.classWritten[t.act.Class(v.Args[0])] = true
			case v.Op == ir.OpCall && !isMath(v):
				// A call may write through its pointer arguments.
				for i, a := range v.Args {
					if handsMemory(a.Type) && t.callWrites(v, i) {
						t.classWritten[t.act.Class(a)] = true
					}
				}
			}
		}
	}
	t.check()
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	t.run()
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	t.pruneRecords()
	if m.Callee && !m.Split {
		// The primal's memory is scratch; the shadows are not.
		primalParams := map[*ir.Value]bool{}
		for _, p := range primal.Params {
			if ssaad.IsPointerLike(p.Type) {
				primalParams[t.val[p]] = true
			}
		}
		t.F.Scratch = make([]bool, len(t.F.Params))
		for i, p := range t.F.Params {
			t.F.Scratch[i] = primalParams[p]
		}
	}
	return t.F, t.warnings
}

type transformer struct {
	ssaad.Builder
	seeded bool
	callee bool // the Callee variant (and the Split variant)
	split  bool // the Split variant (see split.go)
	// splitCalls holds the calls reversed by split reversal; backs, the
	// variable or tape that keeps each one's continuation (see split.go).
	splitCalls map[*ir.Value]bool
	backs      map[*ir.Value]*ir.Value
	// splitShadows holds, per split call, the shadows of its results
	// (by result index) that its forward half returns.
	splitShadows map[*ir.Value]map[int]*ir.Value
	fused        *fusedLoop // the loop reversed inside its forward (see fuse.go), or nil
	// revolve holds the loops checkpointed by a binomial schedule, by
	// header (see revolve.go).
	revolve map[*ir.Block]*revolveLoop
	// firstTrips holds the loops whose tapes are sized after their first
	// trip, by header; tapeBlocks, by tape type, the primal blocks whose
	// forward copies record on the tape; fwdBlock is the block whose
	// forward copy is being emitted (see sizeAfterFirst).
	firstTrips map[*ir.Block]*firstTrip
	// reservedAhead holds the loops whose tapes an earlier loop's
	// reservation grew for them too (see reserveAhead); reserveAt, while
	// set, is the block at whose end a reservation is emitted: a trip
	// bound is hoisted only from values computed there or before.
	reservedAhead map[*ir.Block]bool
	reserveAt     *ir.Block
	tapeBlocks    map[string]map[*ir.Block]bool
	fwdBlock      *ir.Block
	// noValue: the generated function does not return the primal results
	// (gonum=true, value=false, the callee variant).
	noValue bool
	gonum   bool        // the gradient in gonum/optimize's shape (see gonumShape)
	seeds   []*ir.Value // the seed of each result (nil: none), or nil for //gad:grad's constant 1
	primal  *ir.Func
	req     *ssaad.Request
	env     ssaad.Env
	act     *ssaad.Activity
	cfg     *ir.CFG
	exit    *ir.Block          // the primal's single return block
	returns map[*ir.Block]bool // the blocks from which the return is reachable

	val map[*ir.Value]*ir.Value // primal value → its forward copy
	// shadow maps a primal value that refers to memory to its shadow in
	// the forward sweep, rshadow to the one popped with it in the current
	// reverse block, phiShadowSpill to the variable keeping it for blocks
	// out of loops (see shadows.go).
	shadow         map[*ir.Value]*ir.Value
	rshadow        map[*ir.Value]*ir.Value
	phiShadowSpill map[*ir.Value]*ir.Value
	slot           map[*ir.Value]*ir.Value // primal value → the variable holding its adjoint
	tapes          map[string]*ir.Value    // element type → the tape variable
	finalTapes     map[string]*ir.Value    // the same for the final state of parameters (see finalstate.go)
	path           *ir.Value               // the tape of the control path
	local          map[*ir.Value]bool      // values whose adjoints stay within their block (see localValues)
	share          map[*ir.Value]*ir.Value // accumulators sharing their φ's adjoint variable (see accumulators)
	// increments maps the stores *p += x to their load (see increments).
	increments map[*ir.Value]*ir.Value
	// replaced maps the stores that replace slices or pointers in the
	// caller's memory to the load of what they replace (see replaced.go).
	replaced      map[*ir.Value]*ir.Value
	replacedLoads map[*ir.Value]bool // the loads of replaced
	// readOnly memoizes readOnlyCopy; uses are the primal's uses.
	readOnly map[*ir.Value]bool
	uses     [][]*ir.Value
	// classWritten holds the alias classes the primal stores into.
	classWritten     map[int]bool
	writtenAfterMemo map[writtenKey]bool
	freshMemo        map[int]*ir.Block // see freshIn
	// restored holds the classes of memory restored in the reverse sweep
	// (see restore.go); curPos is the position, in the block whose needs
	// are planned (cur), of the instruction being planned.
	restored map[int]bool
	curPos   int
	// counted holds the loops reversed by their index (see counted.go);
	// cur is the primal block being reversed; backEdge marks the reverse
	// blocks that go back to the reverse of a counted loop's header from
	// its body.
	counted map[*ir.Block]*countedLoop
	// spill holds the variables in which blocks out of loops keep what
	// their reverse needs (value → variable).
	spill    map[*ir.Value]*ir.Value
	froms    map[*ir.Block]*ir.Value
	cur      *ir.Block
	backEdge map[*ir.Block]bool
	// recompute marks the values the reverse sweep recomputes rather than
	// reads from a tape (see recompute.go).
	recompute map[*ir.Value]bool
	// round counts the computations of the needs; markRound is the round
	// in which a value was last marked for recomputation.
	round     int
	markRound map[*ir.Value]int
	// iterNeeds holds, per loop header, the values recorded once per
	// iteration of the loop; iterLoop maps them back to their loop, and
	// iterVar and iterShadowVar to the variables holding them and their
	// shadows in the reverse of the iteration (see shadows.go).
	iterNeeds     map[*ir.Block][]*ir.Value
	iterLoop      map[*ir.Value]*ir.Block
	iterVar       map[*ir.Value]*ir.Value
	iterShadowVar map[*ir.Value]*ir.Value
	// iterRebuild holds, per loop header, the addresses its iterations
	// rebuild for the loops nested in them (see shadows.go).
	iterRebuild map[*ir.Block][]*ir.Value
	// groupRecords holds the pushes and pops of each group of recorded
	// values (see prune.go), recordKeys their keys in order.
	groupRecords map[recordKey]*record
	recordKeys   []recordKey
	reserved     []reservedCount
	pend         map[*ir.Value]*ir.Value // adjoints of local values, in the block being reversed
	fwd          map[*ir.Block]*ir.Block // primal block → its forward copy
	fwdLast      map[*ir.Block]*ir.Block // primal block → the block ending its forward copy (see fwdEnd)
	rev          map[*ir.Block]*ir.Block // primal block → its reverse
	needs        map[*ir.Block][]*ir.Value
	rvals        map[*ir.Value]*ir.Value // recorded primal value → its popped copy in the current reverse block
	entry        *ir.Block               // entry of the generated function
	errs         diag.List
	warnings     diag.List // returned with the derivative
	// readBeforeMemo memoizes readBefore for restoredStore.
	readBeforeMemo map[*ir.Value]bool
}

func (t *transformer) errorf(pos token.Pos, construct, format string, args ...any) {
	p := t.env.Position(pos)
	if !p.IsValid() {
		p = t.env.Position(t.primal.Pos)
	}
	t.errs.Add(p, ssaad.FuncName(t.req.Target), construct, format, args...)
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

// isMath reports whether call v is differentiated by a rule: a function
// of package math, or one with a //gad:rule.
func isMath(v *ir.Value) bool { return ssaad.ByRule(v.Callee) }

func isFloat(t types.Type) bool {
	if ir.IsTensor(t) {
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// check reports what this version cannot differentiate.
func (t *transformer) check() {
	p := t.primal
	if err := resultsOK(types.NewTuple(resultVars(p)...), t.seeded); err != nil {
		t.errorf(p.Pos, "results", "%v", err)
		return
	}
	for i, pv := range p.Params {
		if !t.req.Active[i] {
			if t.act.Varied(pv) && !isFloatSlice(pv.Type) {
				t.errorf(p.Pos, "parameter "+pv.Name, "values that depend on the varied inputs are stored through it; add it to wrt=")
			}
			continue // a slice of floats gets a local zero shadow
		}
		if !hasAdjoint(pv.Type) && !handsMemory(pv.Type) {
			t.errorf(p.Pos, "parameter "+pv.Name, "reverse mode does not support varied parameters of type %s yet", types.TypeString(pv.Type, pkgName))
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
					name := ssaad.RuleName(v.Callee)
					r := ssaad.CallRule(v.Callee)
					if r == nil {
						t.errorf(v.Pos, name, "no derivative rule")
					} else if r.Kind == templates.NotDifferentiable {
						t.errorf(v.Pos, name, "not differentiable: %s", r.Reason)
					} else if r.Kind == templates.Smooth && r.Adjoint == nil && r.Partials == nil {
						t.errorf(v.Pos, name, "%s", r.Reason) // a user's rule with a JVP only
					}
				case v.Callee.Builtin == "min" || v.Callee.Builtin == "max":
				case v.Callee.Builtin == "copy" || v.Callee.Builtin == "append":
				case v.Callee.Builtin == "clear":
					if s, ok := v.Args[0].Type.Underlying().(*types.Slice); !ok || ssaad.RefersToMemory(s.Elem()) {
						t.errorf(v.Pos, "builtin clear", "reverse mode supports clear of slices of floats (or of structs and arrays of floats) only, yet; not of %s", types.TypeString(v.Args[0].Type, pkgName))
					}
				case v.Callee.Builtin == "len" || v.Callee.Builtin == "cap" || v.Callee.Builtin == "print" || v.Callee.Builtin == "println":
				default:
					t.checkCall(v)
				}
			case ir.OpField, ir.OpIndex:
				if !hasAdjoint(v.Args[0].Type) && !ssaad.RefersToMemory(v.Args[0].Type) {
					t.errorf(v.Pos, v.Op.String(), "reverse mode does not support %s values that carry derivatives yet", types.TypeString(v.Args[0].Type, pkgName))
				}
			case ir.OpGlobal:
				t.errorf(t.usePos(v), "package-level variable "+v.Global.Name(), "values that depend on the varied inputs are stored into it")
			}
		}
	}
}

// usePos returns the position of the first use of v in the primal (a
// store into a package-level variable, rather than the variable's
// declaration), or v's own.
func (t *transformer) usePos(v *ir.Value) token.Pos {
	for _, b := range t.primal.Blocks {
		for _, x := range b.Instrs {
			if x.Pos.IsValid() && slices.Contains(x.Args, v) {
				return x.Pos
			}
		}
	}
	return v.Pos
}

// checkCall reports what this version cannot do with a call of a function
// with varied arguments: the call is reversed by calling the callee's
// seeded VJP at the call's place in the reverse sweep, which recomputes the
// callee from the same arguments; so the callee must return one float and
// the memory it reads must still hold the same values then.
func (t *transformer) checkCall(v *ir.Value) {
	c := v.Callee
	construct := ssaad.CallConstruct(c)
	if c.Func == nil || c.Invoke || c.Derived != nil || c.Builtin != "" {
		t.errorf(v.Pos, construct, "reverse mode cannot differentiate this call")
		return
	}
	if err := ssaad.Refusal(c.Func); err != nil {
		t.errorf(v.Pos, construct, "%v", err)
		return
	}
	sig := c.Func.Type().(*types.Signature)
	if err := resultsOK(sig.Results(), true); err != nil {
		t.errorf(v.Pos, construct, "reverse mode cannot differentiate this call yet: %v", err)
		return
	}
	if (t.req.Split || c.Split) && !t.req.NoSplit && t.splitRefusal(v) == "" {
		t.splitCalls[v] = true
	}
	if oe, ok := t.env.(ssaad.OriginsEnv); (!ok || oe.StoresMemory(c.Func)) && !t.splitCalls[v] {
		for _, a := range v.Args {
			if ssaad.RefersToMemory(a.Type) && t.act.Varied(a) {
				// Recomputing the call would store fresh memory: the
				// call is reversed in two halves (see split.go).
				if why := t.splitRefusal(v); why != "" || t.req.NoSplit {
					if t.req.NoSplit {
						why = "in a derivative that is differentiated in turn"
					}
					t.errorf(v.Pos, construct, "reverse mode cannot reverse a call of a function that stores slices or pointers (tensors included) into memory its caller can reach %s, yet", why)
					return
				}
				t.splitCalls[v] = true
				break
			}
		}
	}
	for k := range sig.Results().Len() {
		if ssaad.RefersToMemory(sig.Results().At(k).Type()) && t.resultOrigin(v, k) == ssaad.OriginUnknown && !t.splitCalls[v] {
			if t.splitRefusal(v) == "" && !t.req.NoSplit {
				// The caller cannot know the result's shadow: the
				// forward half returns it (see split.go).
				t.splitCalls[v] = true
				break
			}
			t.errorf(v.Pos, construct, "reverse mode does not support calls returning slices or pointers that may share memory with their arguments, other than an argument itself, yet: return a fresh slice (make, a literal, or append to nil) or the argument itself")
			return
		}
	}
	for i, a := range v.Args {
		for j, b := range v.Args[:i] {
			// y[1:] and y[:n-1]: parts of one slice that may overlap,
			// which the callee's reverse takes to be apart (identical
			// arguments are specialized: see ssaad.AliasEnv).
			if ssaad.IsPointerLike(a.Type) && a != b && (t.act.Varied(a) || t.act.Varied(b)) && (t.callWrites(v, i) || t.callWrites(v, j)) && rootOf(a) == rootOf(b) && !disjointParts(a, b) {
				t.errorf(v.Pos, construct, "reverse mode cannot reverse a call whose arguments %d and %d are parts of one slice or variable that may overlap, and that writes one of them", j+1, i+1)
				return
			}
		}
		if !handsMemory(a.Type) || t.splitCalls[v] {
			continue // a split call is not recomputed: nothing is saved for it
		}
		headers := ssaad.IsPointerLike(a.Type) && t.hasShadow(a) && holdsMemoryBehind(a.Type) && t.mayChange(t.act.Class(a)) && t.headersWrittenAfter(v, t.act.Class(a))
		if (t.needsSnapshot(v, i) || headers) && !snapshotable(a.Type) {
			t.errorf(v.Pos, construct, "reverse mode can save and restore around a call only memory made of numbers in structs, arrays, slices and pointers, for now; not of recursive types, maps, channels, functions or interfaces (argument of type %s)", types.TypeString(a.Type, pkgName))
			return
		}
	}
}

// disjointParts reports whether a and b are slices s[i:j] and s[j:k] of
// the same slice s, in either order: one ends where the other starts (the
// same value, or constants).
func disjointParts(a, b *ir.Value) bool {
	if a.Op != ir.OpSlice || b.Op != ir.OpSlice || a.Args[0] != b.Args[0] {
		return false
	}
	ends := func(x, y *ir.Value) bool { // x ends where y starts, or before
		hi, lo := x.Args[2], y.Args[1]
		if hi == nil || lo == nil {
			return false
		}
		if sameExpr(hi, lo, 4) {
			return true
		}
		h, ok1 := constInt(hi)
		l, ok2 := constInt(lo)
		return ok1 && ok2 && h <= l
	}
	return ends(a, b) || ends(b, a)
}

// sameExpr reports whether the integer values x and y are computed alike
// (the same value, equal constants, or the same arithmetic of such, to
// depth levels): unoptimized code computes (2k+1)·b twice.
func sameExpr(x, y *ir.Value, depth int) bool {
	if x == y {
		return true
	}
	if cx, ok := constInt(x); ok {
		cy, ok := constInt(y)
		return ok && cx == cy
	}
	if depth == 0 || x.Op != y.Op || x.Tok != y.Tok || len(x.Args) != len(y.Args) {
		return false
	}
	switch x.Op {
	case ir.OpBinary, ir.OpLen, ir.OpConvert:
	default:
		return false
	}
	for i := range x.Args {
		if !sameExpr(x.Args[i], y.Args[i], depth-1) {
			return false
		}
	}
	return true
}

// constInt returns the value of integer constant v.
func constInt(v *ir.Value) (int64, bool) {
	if v.Op != ir.OpConst || v.Const == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(v.Const))
}

func resultVars(f *ir.Func) []*types.Var {
	var out []*types.Var
	for i, rt := range f.ResultTypes {
		out = append(out, types.NewParam(token.NoPos, nil, f.ResultNames[i], rt))
	}
	return out
}

// pkgName qualifies types by package name in messages.
func pkgName(p *types.Package) string { return p.Name() }

// outOfLoops reports whether b belongs to no loop: it runs at most once,
// so what it records can go in plain variables rather than on tapes.
func (t *transformer) outOfLoops(b *ir.Block) bool {
	for h := range t.cfg.Loop {
		if t.cfg.InLoop(t.primal.Blocks[h], b) {
			return false
		}
	}
	return true
}

// needsSnapshot reports whether the memory a call argument a refers to may
// be written by the function or its callees: its content at the call is
// then saved in the forward sweep and restored before the callee's reverse,
// which recomputes the callee from it.
func (t *transformer) needsSnapshot(call *ir.Value, i int) bool {
	if t.splitCalls[call] {
		return false // not recomputed (see split.go)
	}
	a := call.Args[i]
	if !handsMemory(a.Type) || !t.mayChange(t.act.Class(a)) || !t.writtenAfter(call, t.act.Class(a)) {
		return false
	}
	if t.restored[t.act.Class(a)] {
		return false // the reverse puts back what later stores overwrote
	}
	// A callee that never reads the argument (a pure output) recomputes
	// nothing from it.
	if r := t.env.Reads(call.Callee.Func); r != nil && i < len(r) && !r[i] {
		return false
	}
	return true
}

// callWrites reports whether call v may write through its argument i: the
// destination of copy, append and clear; for other calls, what the
// callee's summary says (everything when unknown).
func (t *transformer) callWrites(v *ir.Value, i int) bool {
	c := v.Callee
	switch {
	case c.Builtin != "":
		switch c.Builtin {
		case "copy", "append", "clear":
			return i == 0
		}
		return false
	case isMath(v):
		return false
	case c.Func != nil && !c.Invoke:
		w := t.env.Writes(c.Func)
		return w == nil || i >= len(w) || w[i]
	}
	return true
}

// writtenAfter reports whether memory of alias class c may be written
// after call v: by v itself, later in its block, or in any block reachable
// from it (loops included).
func (t *transformer) writtenAfter(v *ir.Value, c int) bool {
	return t.writtenAfterBy(v, c, false)
}

// headersWrittenAfter is writtenAfter for the slices and pointers stored
// in memory of class c: only stores of values that hold them, copy,
// append and clear of slices of them, and calls of functions that may
// store them (ssaad.StoresMemory) write them.
func (t *transformer) headersWrittenAfter(v *ir.Value, c int) bool {
	return t.writtenAfterBy(v, c, true)
}

func (t *transformer) writtenAfterBy(v *ir.Value, c int, headers bool) bool {
	if t.split {
		return true // the caller may write anything before the reverse half runs
	}
	key := writtenKey{v.ID, c, headers}
	if w, ok := t.writtenAfterMemo[key]; ok {
		return w
	}
	writes := func(x *ir.Value) bool {
		switch x.Op {
		case ir.OpStore:
			return t.act.Class(x.Args[0]) == c && (!headers || ssaad.RefersToMemory(x.Args[1].Type))
		case ir.OpCall:
			for i, a := range x.Args {
				if handsMemory(a.Type) && t.act.Class(a) == c && t.callWrites(x, i) && (!headers || t.callWritesHeaders(x, a)) {
					return true
				}
			}
		}
		return false
	}
	// Memory allocated afresh in each iteration of a loop is written
	// only in that iteration: the next one writes other memory.
	fresh := t.freshIn(c)
	result := false
	b := v.Block
	after := false
	for _, x := range b.Instrs {
		if x == v {
			after = true
		}
		if after && writes(x) {
			result = true
		}
	}
	seen := map[*ir.Block]bool{}
	work := append([]*ir.Block(nil), b.Succs...)
	for len(work) > 0 && !result {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if fresh != nil && (x == fresh || !t.cfg.InLoop(fresh, x)) {
			continue
		}
		for _, y := range x.Instrs {
			if writes(y) {
				result = true
				break
			}
		}
		work = append(work, x.Succs...)
	}
	t.writtenAfterMemo[key] = result
	return result
}

// writtenKey keys writtenAfterBy's memo.
type writtenKey struct {
	v, c    int
	headers bool
}

// callWritesHeaders reports whether call x may write slices or pointers
// through its argument a: copy, append and clear of slices of them; a
// callee that may store them where its caller sees them.
func (t *transformer) callWritesHeaders(x, a *ir.Value) bool {
	if b := x.Callee.Builtin; b != "" {
		s, ok := a.Type.Underlying().(*types.Slice)
		return ok && ssaad.RefersToMemory(s.Elem())
	}
	oe, ok := t.env.(ssaad.OriginsEnv)
	return !ok || x.Callee.Func == nil || x.Callee.Invoke || oe.StoresMemory(x.Callee.Func)
}

// freshIn returns, when the memory of alias class c is allocated afresh
// in each iteration of a loop and reached only through the allocation's
// value in that iteration, the header of that loop (the innermost around
// the allocation); nil otherwise. The class then holds one allocation
// and values derived from it by indexing, fields, slicing and
// conversions, and no φ, parameter, call result or loaded pointer that
// could carry an earlier iteration's memory.
func (t *transformer) freshIn(c int) *ir.Block {
	if h, ok := t.freshMemo[c]; ok {
		return h
	}
	var root *ir.Value
	ok := c >= 0
	for _, p := range t.primal.Params {
		ok = ok && t.act.Class(p) != c
	}
	for _, b := range t.primal.Blocks {
		for _, v := range b.Instrs {
			if !ok {
				break
			}
			if v.Op.IsTerminator() || v.Op == ir.OpStore || t.act.Class(v) != c || !ssaad.RefersToMemory(v.Type) {
				continue
			}
			switch v.Op {
			case ir.OpAlloc, ir.OpMakeSlice:
				ok = root == nil
				root = v
			case ir.OpIndexAddr, ir.OpFieldAddr, ir.OpSlice, ir.OpConvert:
			default:
				ok = false
			}
		}
	}
	var h *ir.Block
	if ok && root != nil {
		for hi := range t.cfg.Loop {
			l := t.primal.Blocks[hi]
			if t.cfg.InLoop(l, root.Block) && (h == nil || t.cfg.InLoop(h, l)) {
				h = l // innermost
			}
		}
	}
	t.freshMemo[c] = h
	return h
}

// snapshotElem returns the type of the values a snapshot of the memory
// an argument of type t refers to puts on a tape — the elements of a
// slice, the variable a pointer points to — when they hold no memory
// (floats, integers, and structs and arrays of them); nil otherwise.
func snapshotElem(t types.Type) types.Type {
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Pointer:
		elem = u.Elem()
	default:
		return nil
	}
	if ssaad.RefersToMemory(elem) {
		return nil
	}
	return elem
}

// isSlice reports whether t is a slice.
func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// isFloatSlice reports whether t is a slice of floats.
func isFloatSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && isFloat(s.Elem())
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
	var loops []*ir.Block
	for h := range t.cfg.Loop {
		if hb := t.primal.Blocks[h]; t.cfg.InLoop(hb, b) {
			loops = append(loops, hb)
		}
	}
	switch {
	case len(loops) == 0:
		return true
	case len(loops) == 1 && t.cur != nil && !t.cfg.InLoop(loops[0], t.cur):
		// Computed in a loop that is not nested in another, and read
		// after it: its variable keeps the last value through the reverse
		// of what follows the loop (t.cur is the block being recorded or
		// reversed).
		return true
	}
	return false
}
