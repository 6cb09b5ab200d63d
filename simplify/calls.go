package simplify

// This file defines the choice, at each call site of a function that
// reverse mode differentiates, between joint reversal and inlining, made
// before differentiation by a cost model written as data (CallCost).
//
// Joint reversal (reverse mode's scheme for a call it keeps) runs the
// callee forward in the caller's forward sweep, then calls the callee's
// generated reverse, which runs it forward again to record what its own
// reverse sweep needs: every call costs its callee twice, and a call
// nested k deep in kept calls costs its callee k+1 times (GradBench's
// ba: Jacobian ÷ objective 11.2 with project and rodriguesRotatePoint
// each run three times). Inlining the call records the callee's values on
// the caller's tape instead: the callee runs once, at the price of the
// caller's tape (the values the callee's reverse would record anyway) and
// of the generated code's size. So ChooseReversal inlines a call when its
// callee is small and cannot grow the tape beyond what one call records:
//
//   - never a callee in a recursive cycle (inlining would not end), one of
//     another package (but one with loops, called in a loop, that calls
//     one of Costly, below, and by InlineAll's model, All, the last
//     resort of the driver), an interface method or a function without
//     a body gadgen can lower (a generated function, whose body is a
//     stub's while gadgen runs);
//   - a callee without loops of at most Callee IR values, anywhere;
//   - a callee with loops of at most LoopCallee values, only at a call site
//     outside every loop of the caller: there the callee runs once per
//     call of the caller and the tape holds what the callee's own reverse
//     would have recorded; inside a loop the tape would hold the callee's
//     loop once per iteration where joint reversal holds it once (a
//     callee of at most InLoopCallee values that calls one of Costly,
//     functions dearer to compute again than to record, may be inlined
//     there too; see ReverseCost's measurements);
//   - never a callee with loops that the function calls at more than one
//     site (but by InlineAll's model): each inlined copy would repeat its
//     loops, forward and reversed, where one generated reverse serves
//     every site (GMM's logsumexp, called in the loop over the points and
//     once for the weights);
//   - calls met inside inlined bodies up to Depth levels of nesting, and
//     no call once the caller has grown past Caller values, so that the
//     generated code stays reviewable.
//
// The other calls stay calls, differentiated by joint reversal. (Where
// the reverse transformer cannot reverse the inlined function, the driver
// differentiates it again with every call reversed jointly.) The
// decisions are returned as a CallPlan that -dump prints ("calls") and
// the tests snapshot.

import (
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
)

// CallCost is the cost model by which ChooseReversal inlines calls. Sizes
// count IR values (instructions and parameters of the lowered body).
type CallCost struct {
	// Callee is the largest loop-free callee inlined.
	Callee int
	// LoopCallee is the largest callee with loops inlined, at call sites
	// outside the caller's loops; 0 inlines none.
	LoopCallee int
	// InLoopCallee is the largest callee with loops inlined at call sites
	// inside a loop of the caller, when it calls one of Costly (itself or
	// through the functions of its package it calls); 0 inlines none (the
	// tape then holds the callee's loop once per iteration of the caller's).
	InLoopCallee int
	// Costly lists the primitives (package path and name) whose
	// recomputation costs more than recording their result on a tape.
	Costly []string
	// Depth is the deepest nesting of inlined calls: 1 inlines the calls
	// of the function only, 2 also the calls that the inlined bodies make.
	Depth int
	// Caller is the size past which no more calls are inlined into a
	// function.
	Caller int
	// All inlines every call that can be, within Depth and Caller,
	// whatever its size and loops, calls of //gad:checkpoint functions
	// included: InlineAll's model.
	All bool
	// KeepInLoops keeps the calls that the function makes in its loops
	// (depth 1) as calls: checkpoint=C checkpoints loops whose steps are
	// calls.
	KeepInLoops bool
	// Split reverses in two halves (Split) the calls of recursive
	// functions, and the calls of the package's functions outside loops
	// that are not inlined for their size or depth, instead of
	// recomputing them (Joint).
	Split bool
}

// InlineAll is the cost model of the driver's last resort: where joint
// reversal refuses a call (a helper storing slices or pointers into
// memory its caller reaches, with loops, called in a loop), every call
// that can be inlined is, so that reverse mode differentiates the
// function as one body, whatever the tape costs, and whatever
// //gad:checkpoint asks (the driver warns when it overrides one).
var InlineAll = CallCost{All: true, Depth: 8, Caller: 20000, Split: true}

// ReverseCost is the cost model reverse mode uses. Measured
// (bench/README, "Reversal of calls"; derivative ÷ primal, CPU time, one
// thread): inlining takes GradBench's ba Jacobian from 11 to 5.7 (project
// and rodriguesRotatePoint, loop-free, ran three times each) and ODE's
// gradient from 4.2–4.6 to 3.4–3.8 (Solve, with loops, called once by
// Last; bytes 246 KB → 197 KB); GMM is unchanged (its helpers with loops
// are called in loops). Inlining the helpers with loops that the LSTM
// calls in its time loop (they call math.Exp and math.Tanh) first took
// GradBench's LSTM from 5.0 to 4.6 but bench/'s S2c from 5.3 to 7.4, with
// 3.8–4.2× the bytes: each inlined call split its loop's body into blocks
// that recorded the same values again, and the tape grew by a quarter at
// a time. With both fixed (simplify's straighten pass; tapes sized after
// the first trip), InLoopCallee 160 takes GradBench's LSTM from 3.6 to
// 1.8–1.9 and S2c from 4.1–4.8 to 1.7–2.4 (bytes 1.4–1.7× the
// hand-written gradient's); helpers that call none of Costly (GMM's
// qtimesx and sqnorm, ODE's rhs) stay calls. bench/'s GMM calls its
// logsumexp at two sites, in the loop over the points and once for the
// weights: inlined at both, its gradient took 4.4, 4.4 and 4.2 times the
// function (K, D, N = 5, 3, 200; 25, 10, 1000; 50, 20, 500; medians of 41,
// interleaved), kept at both with one generated reverse 4.4–4.6, 3.7 and
// 3.8, and the tape holds K values a point instead of 3K + 1, for 29 fewer
// lines of generated code (only at D = 64: 5.6–5.8 inlined against
// 5.8–6.3).
//
// Split reversal (Split) of the package's calls outside loops that are too
// large or too deep to inline: the e2e case reversal.Large (a leapfrog
// helper of 171 values called once; gradient ÷ function, medians of 15,
// n = 8, 64, 512) 6.86, 5.94, 8.91 split against 6.91, 6.52, 10.09 joint
// (and 5.70, 6.38, 7.65 inlined by -reversal=inline), bytes 5–25 % more:
// the callee runs once instead of twice. Recursive calls stay joint:
// GradBench's det (expansion by minors, ℓ = 4, 6, 8) costs 11.7, 16.5,
// 19.4 joint and 32.6, 42.6, 78.0 split, whose continuation, tapes and
// captured variables are allocated at each of the ℓ!·e calls (239 to
// 402,172 allocations against 2).
var ReverseCost = CallCost{Callee: 160, LoopCallee: 160, InLoopCallee: 160, Depth: 3, Caller: 1200, Split: true,
	Costly: []string{"math.Exp", "math.Exp2", "math.Expm1", "math.Log", "math.Log1p", "math.Log2", "math.Log10", "math.Pow",
		"math.Sin", "math.Cos", "math.Tan", "math.Sinh", "math.Cosh", "math.Tanh", "math.Asin", "math.Acos", "math.Atan",
		"math.Atan2", "math.Asinh", "math.Acosh", "math.Atanh", "math.Erf", "math.Erfc", "math.Gamma", "math.Lgamma"}}

// Reversal says how reverse mode differentiates a call.
type Reversal int

const (
	// Joint: the call stays; the callee's generated reverse recomputes
	// the callee.
	Joint Reversal = iota
	// Inlined: the callee's body replaces the call before
	// differentiation.
	Inlined
	// Split: the call stays; its callee's forward half runs in the
	// caller's forward sweep, records what its reverse needs and returns
	// its reverse half, which the caller's reverse calls (reverse mode's
	// split reversal): the callee runs once.
	Split
)

// String returns "joint", "inline" or "split".
func (r Reversal) String() string {
	switch r {
	case Inlined:
		return "inline"
	case Split:
		return "split"
	}
	return "joint"
}

// CallSite is the decision taken for one call site.
type CallSite struct {
	// Callee is the called function's name, qualified by its package
	// when that is not the caller's.
	Callee string
	// Depth is 1 for a call of the function itself, n+1 for a call that a
	// body inlined at depth n makes.
	Depth int
	// Size is the callee's size in IR values, 0 when it has no body.
	Size int
	// Loops: the callee has a loop. InLoop: the call site is inside a
	// loop of the caller.
	Loops, InLoop bool
	Reversal      Reversal
	// Why gives the reason of the decision.
	Why string
	// Checkpoint: the callee is marked //gad:checkpoint.
	Checkpoint bool
}

// CallPlan lists the decisions ChooseReversal took for the call sites of
// a function, in the order it met them.
type CallPlan struct {
	Func  string
	Sites []CallSite
}

// String prints the plan, one call site a line:
//
//	inline cross depth=3 size=48 loop-free: small, loop-free: runs once instead of twice
func (p CallPlan) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "calls of %s:\n", p.Func)
	for _, s := range p.Sites {
		loops := "loop-free"
		if s.Loops {
			loops = "loops"
		}
		where := ""
		if s.InLoop {
			where = " in-loop"
		}
		body := ""
		if s.Size > 0 {
			body = fmt.Sprintf(" size=%d %s", s.Size, loops)
		}
		fmt.Fprintf(&sb, "\t%s %s depth=%d%s%s: %s\n", s.Reversal, s.Callee, s.Depth, body, where, s.Why)
	}
	return sb.String()
}

// ChooseReversal decides, at each call site of f, between joint reversal
// and inlining by cost (see above), inlines the calls it picks, and
// returns the decisions. Calls of primitives (package math's functions,
// builtins, rules, derivatives) are not call sites here: their
// derivatives are rules. env nil inlines nothing.
func ChooseReversal(f *ir.Func, env Env, cost CallCost) CallPlan {
	plan := CallPlan{Func: f.Name}
	if env == nil {
		return plan
	}
	c := &chooser{f: f, env: env, cost: cost, depth: map[*ir.Value]int{}, seen: map[*ir.Value]bool{},
		bodies: map[*types.Func]*ir.Func{}, cycle: map[*types.Func]bool{}}
	for {
		call := c.next()
		if call == nil {
			break
		}
		site := c.decide(call)
		plan.Sites = append(plan.Sites, site)
		if site.Reversal == Split {
			k := *call.Callee
			k.Split = true
			call.Callee = &k
		}
		if site.Reversal != Inlined {
			continue
		}
		d := c.depthOf(call)
		packVarargs(f, call)
		for v := range inlineCall(f, call, env.Body(call.Callee.Func)) {
			if v.Op == ir.OpCall {
				c.depth[v] = d + 1
			}
		}
	}
	if len(plan.Sites) > 0 {
		DeadCode(f)
	}
	return plan
}

// chooser holds ChooseReversal's state for one function.
type chooser struct {
	f     *ir.Func
	env   Env
	cost  CallCost
	depth map[*ir.Value]int // calls copied from inlined bodies: their depth
	seen  map[*ir.Value]bool
	// bodies caches the callees' lowered bodies, for sizes and the call
	// graph (nil: no body); cycle caches whether a callee is in a cycle.
	bodies map[*types.Func]*ir.Func
	cycle  map[*types.Func]bool
}

// depthOf returns the depth of the call site call.
func (c *chooser) depthOf(call *ir.Value) int {
	if d, ok := c.depth[call]; ok {
		return d
	}
	return 1
}

// next returns the first call site of f not decided yet, or nil.
func (c *chooser) next() *ir.Value {
	for _, b := range c.f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && !c.seen[v] && c.site(v) {
				c.seen[v] = true
				return v
			}
		}
	}
	return nil
}

// site reports whether call is a call site of the cost model: a call of a
// function gadgen may lower, not of a primitive.
func (c *chooser) site(call *ir.Value) bool {
	k := call.Callee
	return k.Func != nil && !k.Invoke && k.Derived == nil && k.Builtin == "" && k.Rule == nil && k.Primitive() == nil
}

// body returns callee's lowered body, cached, or nil.
func (c *chooser) body(callee *types.Func) *ir.Func {
	if b, ok := c.bodies[callee]; ok {
		return b
	}
	c.bodies[callee] = nil // a cycle met while lowering sees no body
	b := c.env.Body(callee)
	c.bodies[callee] = b
	return b
}

// decide returns the decision for call.
func (c *chooser) decide(call *ir.Value) CallSite {
	k := call.Callee
	site := CallSite{Callee: shortName(k.Func, c.f.Pkg), Depth: c.depthOf(call), Reversal: Joint}
	cfg := ir.NewCFG(c.f)
	site.InLoop = cfg.InAnyLoop(call.Block)
	if k.Func.Pkg() == nil || c.f.Pkg == nil {
		site.Why = "no package"
		return site
	}
	// Another package's function is inlined only to record what it
	// computes in a loop with costly math (its reverse would compute it
	// again), or by InlineAll: else its calls stay calls, its code
	// (gonum's assembly kernels, say) as its package wrote it.
	other := k.Func.Pkg().Path() != c.f.Pkg.Path() && !c.cost.All
	if other && !site.InLoop {
		site.Why = "another package"
		return site
	}
	g := c.body(k.Func)
	if g == nil || len(g.Params) != packedArgs(call) || len(g.Blocks[0].Preds) > 0 || !returns(g) {
		site.Why = "no body to inline"
		return site
	}
	site.Size = size(g)
	site.Loops = len(ir.NewCFG(g).Loop) > 0
	site.Checkpoint = checkpointed(c.env, k.Func)
	switch {
	case site.Checkpoint && !c.cost.All:
		site.Why = "//gad:checkpoint: recomputed, not recorded"
	case c.cost.KeepInLoops && !c.cost.All && site.Depth == 1 && site.InLoop:
		site.Why = "checkpoint=C: a step of a checkpointed loop, recomputed from the schedule's copies"
	case c.recursive(k.Func):
		site.Why = "recursive"
	case site.Depth > c.cost.Depth:
		site.Why = fmt.Sprintf("deeper than %d", c.cost.Depth)
		c.splitOutOfLoops(&site)
	case size(c.f)+site.Size > c.cost.Caller:
		site.Why = fmt.Sprintf("the caller would exceed %d values", c.cost.Caller)
		c.splitOutOfLoops(&site)
	case c.cost.All:
		site.Reversal, site.Why = Inlined, "every call inlined: joint reversal refuses the function"
	case other && !site.Loops:
		site.Why = "another package"
	case !site.Loops && site.Size > c.cost.Callee:
		site.Why = fmt.Sprintf("larger than %d values", c.cost.Callee)
		c.splitOutOfLoops(&site)
	case site.Loops && c.sites(k.Func) > 1:
		site.Why = fmt.Sprintf("loops, called at %d sites: one generated reverse serves them all", c.sites(k.Func))
	case site.Loops && site.InLoop && c.cost.InLoopCallee == 0:
		site.Why = "loops, called in a loop: the tape would hold them once per iteration"
	case site.Loops && site.InLoop && site.Size > c.cost.InLoopCallee:
		site.Why = fmt.Sprintf("loops, called in a loop, larger than %d values", c.cost.InLoopCallee)
	case site.Loops && site.InLoop && !c.costly(k.Func, map[*types.Func]bool{}):
		site.Why = "loops, called in a loop, cheaper to recompute than to record"
	case site.Loops && site.InLoop:
		site.Reversal, site.Why = Inlined, "loops, called in a loop, calls costly primitives: recorded once instead of computed three times"
	case site.Loops && site.Size > c.cost.LoopCallee:
		site.Why = fmt.Sprintf("loops, larger than %d values", c.cost.LoopCallee)
		c.splitOutOfLoops(&site)
	case site.Loops:
		site.Reversal, site.Why = Inlined, "loops, called once: runs once instead of twice"
	default:
		site.Reversal, site.Why = Inlined, "small, loop-free: runs once instead of twice"
	}
	return site
}

// sites returns the number of calls of fn that f makes.
func (c *chooser) sites(fn *types.Func) int {
	n := 0
	for _, b := range c.f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Func == fn && !v.Callee.Invoke {
				n++
			}
		}
	}
	return n
}

// splitOutOfLoops makes site, a call of the package's kept as a call,
// split (Split) rather than joint when the cost model splits and the call
// is outside the caller's loops: the callee then runs once instead of
// twice, and what its reverse records is held once, as joint reversal's
// recomputation holds it.
func (c *chooser) splitOutOfLoops(site *CallSite) {
	if c.cost.Split && !site.InLoop {
		site.Reversal = Split
		site.Why += ": reversed in two halves, runs once instead of twice"
	}
}

// packedArgs returns the number of arguments of call once its variadic
// arguments are packed into their slice (see packVarargs).
func packedArgs(call *ir.Value) int {
	sig := call.Callee.Func.Type().(*types.Signature)
	if !sig.Variadic() || call.Callee.Spread {
		return len(call.Args)
	}
	return sig.Params().Len()
}

// packVarargs makes call of a variadic function, unless it spreads a
// slice already, pass its variadic arguments in one slice, as the callee
// receives them: a new slice of them before the call (nil for none), and
// the call marked Spread.
func packVarargs(f *ir.Func, call *ir.Value) {
	sig := call.Callee.Func.Type().(*types.Signature)
	if !sig.Variadic() || call.Callee.Spread {
		return
	}
	fixed := sig.Params().Len() - 1
	st := sig.Params().At(fixed).Type()
	elems := call.Args[fixed:]
	b := call.Block
	at := indexOf(b, call)
	var vs []*ir.Value
	var s *ir.Value
	if len(elems) == 0 {
		s = f.ConstValue(st, nil)
	} else {
		n := f.ConstValue(types.Typ[types.Int], constant.MakeInt64(int64(len(elems))))
		s = f.NewValue(ir.OpMakeSlice, st, n, n)
		vs = append(vs, s)
		elem := st.Underlying().(*types.Slice).Elem()
		for i, x := range elems {
			idx := f.ConstValue(types.Typ[types.Int], constant.MakeInt64(int64(i)))
			a := f.NewValue(ir.OpIndexAddr, types.NewPointer(elem), s, idx)
			vs = append(vs, a, f.NewValue(ir.OpStore, nil, a, x))
		}
	}
	for i, v := range vs {
		v.Pos = call.Pos
		b.Insert(at+i, v)
	}
	call.Args = append(call.Args[:fixed:fixed], s)
	k := *call.Callee
	k.Spread = true
	call.Callee = &k
}

// recursive reports whether fn is in a cycle of the call graph of the
// functions of its package (those with bodies).
func (c *chooser) recursive(fn *types.Func) bool {
	if r, ok := c.cycle[fn]; ok {
		return r
	}
	seen := map[*types.Func]bool{}
	var reaches func(g *types.Func) bool
	reaches = func(g *types.Func) bool {
		body := c.body(g)
		if body == nil {
			return false
		}
		for _, b := range body.Blocks {
			for _, v := range b.Instrs {
				if v.Op != ir.OpCall || !c.site(v) {
					continue
				}
				h := v.Callee.Func
				if h == fn {
					return true
				}
				if h.Pkg() != fn.Pkg() || seen[h] {
					continue
				}
				seen[h] = true
				if reaches(h) {
					return true
				}
			}
		}
		return false
	}
	r := reaches(fn)
	c.cycle[fn] = r
	return r
}

// costly reports whether fn calls one of c.cost.Costly, itself or through
// the functions of its package it calls (those not in seen).
func (c *chooser) costly(fn *types.Func, seen map[*types.Func]bool) bool {
	seen[fn] = true
	body := c.body(fn)
	if body == nil {
		return false
	}
	for _, b := range body.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || v.Callee.Func == nil || v.Callee.Func.Pkg() == nil {
				continue
			}
			h := v.Callee.Func
			if v.Callee.Primitive() != nil && slices.Contains(c.cost.Costly, h.Pkg().Path()+"."+h.Name()) {
				return true
			}
			if c.site(v) && h.Pkg() == fn.Pkg() && !seen[h] && c.costly(h, seen) {
				return true
			}
		}
	}
	return false
}

// shortName returns fn's full name ((*T).m for a method), its package
// named by its name when it is not pkg, omitted when it is.
func shortName(fn *types.Func, pkg *types.Package) string {
	qual := ""
	if fn.Pkg() == nil {
		return fn.FullName()
	}
	if pkg == nil || fn.Pkg().Path() != pkg.Path() {
		qual = fn.Pkg().Name() + "."
	}
	return strings.ReplaceAll(fn.FullName(), fn.Pkg().Path()+".", qual)
}

// size returns the number of values of g: its parameters and
// instructions.
func size(g *ir.Func) int {
	n := len(g.Params)
	for _, b := range g.Blocks {
		n += len(b.Instrs)
	}
	return n
}

// returns reports whether g has a return (a generated function's stub
// only panics).
func returns(g *ir.Func) bool {
	for _, b := range g.Blocks {
		if t := b.Terminator(); t != nil && t.Op == ir.OpReturn {
			return true
		}
	}
	return false
}

// Inlines reports whether the plan inlines a call.
func (p CallPlan) Inlines() bool {
	for _, s := range p.Sites {
		if s.Reversal == Inlined {
			return true
		}
	}
	return false
}
