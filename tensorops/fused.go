package tensorops

// This file defines Fuse and FuseInto, the evaluation of a tree of
// elementwise operations in one pass over the data, which generated
// derivatives call where package simplify fused a chain of elementwise
// calls. The design is numexpr's: the expression is parsed and compiled
// once (cached by its text) into instructions of a small register
// machine whose registers hold blocks of fuseBlock elements, and each
// block of the result goes through every instruction while it is in
// cache. Only the result is allocated; the registers are pooled.
//
// Exactness: each operator of the expression stands for one operation of
// this package, and the machine applies it with that operation's kernel
// formula (kernels.go) on values of the tensors' element type, so every
// intermediate is rounded as the separate operation rounds it. Operands
// that are nil, and shapes that make a separate operation panic or
// broadcast an intermediate result, are handed to the separate
// operations themselves (fnode.eval).
//
// On a device (operands not on the CPU), the separate operations run one
// by one, each a kernel of the device's backend, and FuseInto writes the
// last one into dst (fprog.deviceInto); the results are the separate
// operations', as on the CPU.

import (
	"fmt"
	"math"
	"strconv"
	"sync"
)

// Fuse returns the value of the elementwise expression expr, whose
// operands a, b, c, … are the arguments operands in order: each a *Tensor
// or a float64 (a scalar). The result is what the separate operations of
// the expression return, bit for bit, computed in one pass that allocates
// only the result:
//
//	Fuse("(1 - a*a)*d - 2*a*b*c", h, g, dh, dg)
//
// is Sub(Mul(Affine(Mul(h, h), -1, 1), dg), Mul(Mul(Scale(h, 2), g), dh)).
//
// The expression is Go syntax over operands, numbers (Go float literals,
// a leading minus allowed), parentheses, the operators + - * / and unary
// minus with Go's precedence and left associativity, and calls. With T
// a tensor-valued expression and s a number or scalar operand, each form
// is one operation:
//
//	T + T  Add          T - T  Sub          T * T  Mul      T / T  Div
//	T + s  AddScalar(T, s), as is s + T     T - s  AddScalar(T, -s)
//	s - T  Affine(T, -1, s)                 s * T  Scale(T, s), as is T * s
//	s / T  ScalarDiv(s, T)                  -T     Neg(T)
//
// and the calls Exp, Log, Tanh, Sigmoid, ReLU, Sqrt, Abs, Square, Sin,
// Cos, Sign, Step, Log1p, Expm1 (of T), Maximum, Minimum, Pow, TanhJVP,
// SigmoidJVP, ReLUJVP (of T, T) and Affine (of T, s, s) are the functions
// of this package of those names. A scalar operand can be negated only
// in T - s; no other arithmetic on scalars alone is allowed.
//
// Broadcasting, nil operands and panics are those of the separate
// operations, evaluated left to right: when an operand is nil, or the
// shapes or dtypes are such that an operation would panic or an
// intermediate result would be broadcast, Fuse evaluates the operations
// one by one. The result is nil where theirs is, and otherwise a fresh
// tensor, never an operand itself: where theirs is an operand (Add(nil,
// b) is b), Fuse returns a copy of it, so that a caller may write into
// the result (see FuseInto).
// It panics if expr is not a valid expression, does not use each operand,
// or an operand is neither a *Tensor nor a float64.
func Fuse(expr string, operands ...any) *Tensor {
	return fuse(nil, expr, operands)
}

// FuseInto is Fuse computed into dst when dst is a contiguous tensor of
// the result's shape and dtype, and the operation is not left to the
// separate operations (see Fuse); it then returns dst. Otherwise it
// returns Fuse's result (or dst itself, unchanged, where the separate
// operations return that operand) and leaves dst alone. dst may be one of the
// operands (each element of the result is computed from the elements of
// the operands at the same index), but must not otherwise share memory
// with one. Generated code calls it with an operand that is not used
// afterwards, to reuse its buffer.
func FuseInto(dst *Tensor, expr string, operands ...any) *Tensor {
	return fuse(dst, expr, operands)
}

const (
	fuseBlock     = 256 // elements per block of the machine
	maxFuseArgs   = 26  // operands a … z
	maxFuseSlots  = 64  // leaves and registers, on the stack
	maxFuseParams = 32  // scalar parameters, on the stack
)

func fuse(dst *Tensor, expr string, operands []any) *Tensor {
	if len(operands) > maxFuseArgs {
		panic(fmt.Sprintf("tensorops: Fuse: %d operands, at most %d", len(operands), maxFuseArgs))
	}
	var ts [maxFuseArgs]*Tensor
	var ss [maxFuseArgs]float64
	var mask uint32
	anyNil := false
	for i, o := range operands {
		switch o := o.(type) {
		case *Tensor:
			ts[i] = o
			anyNil = anyNil || o == nil
		case float64:
			ss[i] = o
			mask |= 1 << i
		case nil:
			anyNil = true
		default:
			panic(fmt.Sprintf("tensorops: Fuse: expression %q: operand %c is a %T, not a *Tensor or a float64", expr, 'a'+i, o))
		}
	}
	p := fuseProgram(expr, len(operands), mask)
	if anyNil {
		return fresh(p.root.eval(ts[:], ss[:]), dst, ts[:len(operands)])
	}
	for _, t := range ts[:len(operands)] {
		if t != nil && t.lanes || dst != nil && dst.lanes {
			return laneFuse(p, dst, ts[:len(operands)], ss[:])
		}
	}
	shape, dt, ok := p.shape(ts[:])
	if !ok {
		if out := p.deviceInto(dst, ts[:], ss[:]); out != nil {
			return out
		}
		return fresh(p.root.eval(ts[:], ss[:]), dst, ts[:len(operands)])
	}
	out := dst
	if out == nil || !sameShape(out.shape, shape) || out.dtype != dt || out.dev != CPU || !out.IsContiguous() {
		out = allocRaw(dt, shape)
	} else if out.sym {
		out.sym = false // about to be written: no longer known symmetric
	}
	if dt == Float32 {
		fuseApply[float32](p, out, ts[:], ss[:])
	} else {
		fuseApply[float64](p, out, ts[:], ss[:])
	}
	return out
}

// deviceInto evaluates p on a device for FuseInto: when dst is a
// contiguous device tensor of the result's shape and dtype, on the
// operands' device, and the shapes are such that the CPU would fuse, it
// computes the operations one by one with the device's kernels (each a
// launch, the intermediate results in fresh buffers), the last one into
// dst, and returns dst; otherwise nil. The operands of the last operation
// are computed before it writes dst, so dst may be one of the operands.
// A single fused kernel per expression is a later optimization (package
// gpu's doc).
func (p *fprog) deviceInto(dst *Tensor, ts []*Tensor, ss []float64) *Tensor {
	if dst == nil || dst.dev == CPU || !dst.IsContiguous() {
		return nil
	}
	for _, i := range p.leaves {
		if t := ts[i]; t.dev != dst.dev || t.dtype != dst.dtype {
			return nil
		}
	}
	shape, ok := p.nodeShape(p.root, ts)
	if !ok || !sameShape(shape, dst.shape) {
		return nil
	}
	n := p.root
	if n.op == fLeaf {
		copyInto(dst, ts[n.arg])
	} else {
		x := n.x.eval(ts, ss)
		if u, ok := fuseUnary[n.op]; ok {
			unary("Fuse", u, dst, x, n.p.value(ss), n.q.value(ss))
		} else {
			binary("Fuse", fuseBinary[n.op], dst, x, n.y.eval(ts, ss))
		}
	}
	dst.sym = false
	return dst
}

// fresh returns r, or a copy of it when it is one of ts other than dst
// (which the caller gave up).
func fresh(r, dst *Tensor, ts []*Tensor) *Tensor {
	if r == dst {
		return r
	}
	for _, t := range ts {
		if r != nil && r == t {
			return r.Clone()
		}
	}
	return r
}

// fop is an operation of a fused expression.
type fop uint8

const (
	fLeaf fop = iota // a tensor operand
	// One tensor operand.
	fNeg
	fExp
	fLog
	fTanh
	fSigmoid
	fReLU
	fSqrt
	fAbs
	fSquare
	fSin
	fCos
	fSign
	fStep
	fLog1p
	fExpm1
	// One tensor operand and the scalar parameters p, q.
	fScale  // x * p
	fAddS   // x + p
	fAffine // p*x + q
	fRDivS  // p / x
	// Two tensor operands.
	fAdd
	fSub
	fMul
	fDiv
	fPow
	fMax
	fMin
	fTanhJVP    // y * (1 - x*x)
	fSigmoidJVP // y * x * (1 - x)
	fReLUJVP    // y where x > 0, else 0
)

// binary reports whether op has two tensor operands.
func (op fop) binary() bool { return op >= fAdd }

// math reports whether op calls a function of package math (a kernel of
// grainMath rather than grainCheap).
func (op fop) math() bool {
	switch op {
	case fExp, fLog, fTanh, fSigmoid, fSin, fCos, fLog1p, fExpm1, fPow:
		return true
	}
	return false
}

// fuseCalls are the functions an expression may call: the operation and
// the kinds of its arguments ('t' a tensor, 's' a scalar).
var fuseCalls = map[string]struct {
	op   fop
	args string
}{
	"Exp": {fExp, "t"}, "Log": {fLog, "t"}, "Tanh": {fTanh, "t"}, "Sigmoid": {fSigmoid, "t"},
	"ReLU": {fReLU, "t"}, "Sqrt": {fSqrt, "t"}, "Abs": {fAbs, "t"}, "Square": {fSquare, "t"},
	"Sin": {fSin, "t"}, "Cos": {fCos, "t"}, "Sign": {fSign, "t"}, "Step": {fStep, "t"},
	"Log1p": {fLog1p, "t"}, "Expm1": {fExpm1, "t"},
	"Maximum": {fMax, "tt"}, "Minimum": {fMin, "tt"}, "Pow": {fPow, "tt"},
	"TanhJVP": {fTanhJVP, "tt"}, "SigmoidJVP": {fSigmoidJVP, "tt"}, "ReLUJVP": {fReLUJVP, "tt"},
	"Affine": {fAffine, "tss"},
}

// sref is a scalar of an expression: a constant, or a scalar operand,
// possibly negated.
type sref struct {
	arg int // operand index, or -1 for the constant c
	c   float64
	neg bool
}

func (s sref) value(ss []float64) float64 {
	if s.arg < 0 {
		return s.c
	}
	if s.neg {
		return -ss[s.arg]
	}
	return ss[s.arg]
}

// fnode is an operation of a typed expression tree.
type fnode struct {
	op   fop
	arg  int    // fLeaf: the operand
	x, y *fnode // tensor operands (y for binary ops)
	p, q sref   // scalar parameters
}

// eval evaluates n by the separate operations, left to right.
func (n *fnode) eval(ts []*Tensor, ss []float64) *Tensor {
	if n.op == fLeaf {
		return ts[n.arg]
	}
	x := n.x.eval(ts, ss)
	var y *Tensor
	if n.op.binary() {
		y = n.y.eval(ts, ss)
	}
	p, q := n.p.value(ss), n.q.value(ss)
	switch n.op {
	case fNeg:
		return Neg(x)
	case fExp:
		return Exp(x)
	case fLog:
		return Log(x)
	case fTanh:
		return Tanh(x)
	case fSigmoid:
		return Sigmoid(x)
	case fReLU:
		return ReLU(x)
	case fSqrt:
		return Sqrt(x)
	case fAbs:
		return Abs(x)
	case fSquare:
		return Square(x)
	case fSin:
		return Sin(x)
	case fCos:
		return Cos(x)
	case fSign:
		return Sign(x)
	case fStep:
		return Step(x)
	case fLog1p:
		return Log1p(x)
	case fExpm1:
		return Expm1(x)
	case fScale:
		return Scale(x, p)
	case fAddS:
		return AddScalar(x, p)
	case fAffine:
		return Affine(x, p, q)
	case fRDivS:
		return ScalarDiv(p, x)
	case fAdd:
		return Add(x, y)
	case fSub:
		return Sub(x, y)
	case fMul:
		return Mul(x, y)
	case fDiv:
		return Div(x, y)
	case fPow:
		return Pow(x, y)
	case fMax:
		return Maximum(x, y)
	case fMin:
		return Minimum(x, y)
	case fTanhJVP:
		return TanhJVP(x, y)
	case fSigmoidJVP:
		return SigmoidJVP(x, y)
	case fReLUJVP:
		return ReLUJVP(x, y)
	}
	panic("tensorops: internal error: unknown fused op")
}

// finstr is an instruction of the machine: slot d = op(slot x, slot y,
// parameters p, q).
type finstr struct {
	op         fop
	d, x, y    int
	pidx, qidx int
}

// fprog is a compiled expression. Slots 0 … len(leaves)−1 hold the tensor
// operands, the next nregs the registers, and the last the result.
type fprog struct {
	root   *fnode
	leaves []int // operand index of each leaf slot
	nregs  int
	code   []finstr
	params []sref
	ops    int  // operations
	math   bool // some operation calls package math
}

// grain returns the parallel grain of p: work per element grows with the
// number of operations, so large tensors are split as by a math kernel,
// or as by a cheap one scaled down.
func (p *fprog) grain() int {
	if p.math {
		return grainMath
	}
	return max(grainMath, grainCheap/p.ops)
}

// slots returns the number of slots.
func (p *fprog) slots() int { return len(p.leaves) + p.nregs + 1 }

// fuseKey identifies a compiled program: the text, the number of operands
// and which are scalars.
type fuseKey struct {
	expr    string
	n       int
	scalars uint32
}

var fusePrograms sync.Map // fuseKey → *fprog

// fuseProgram returns the compiled program of expr for n operands, those
// of the bits of scalars being scalars.
func fuseProgram(expr string, n int, scalars uint32) *fprog {
	key := fuseKey{expr, n, scalars}
	if p, ok := fusePrograms.Load(key); ok {
		return p.(*fprog)
	}
	p := compileFuse(expr, n, scalars)
	q, _ := fusePrograms.LoadOrStore(key, p)
	return q.(*fprog)
}

// fuseError is a panic value of the parser, recovered by compileFuse.
type fuseError string

func compileFuse(expr string, n int, scalars uint32) (p *fprog) {
	defer func() {
		if r := recover(); r != nil {
			msg, ok := r.(fuseError)
			if !ok {
				panic(r)
			}
			panic(fmt.Sprintf("tensorops: Fuse: expression %q: %s", expr, msg))
		}
	}()
	ps := &fparser{src: expr, n: n, scalars: scalars}
	ps.next()
	v := ps.expr()
	if ps.tok != 0 {
		ps.fail("unexpected %s", ps.text())
	}
	if v.t == nil {
		ps.fail("the result is a scalar")
	}
	for i := range n {
		if !ps.used[i] {
			ps.fail("operand %c is not used", 'a'+i)
		}
	}
	p = &fprog{root: v.t}
	c := fcompiler{p: p, leafSlot: map[int]int{}, consts: map[uint64]int{}}
	c.leavesOf(v.t)
	c.walk(v.t, func(n *fnode) {
		if n.op != fLeaf {
			p.ops++
			p.math = p.math || n.op.math()
		}
	})
	if p.ops == 0 {
		ps.fail("no operation")
	}
	c.emit(v.t, true)
	return p
}

// fcompiler allocates the slots and parameters of a program.
type fcompiler struct {
	p        *fprog
	leafSlot map[int]int    // operand → slot
	consts   map[uint64]int // constant's bits → parameter
	free     []int          // free register slots
}

func (c *fcompiler) walk(n *fnode, f func(*fnode)) {
	if n == nil {
		return
	}
	c.walk(n.x, f)
	c.walk(n.y, f)
	f(n)
}

func (c *fcompiler) leavesOf(root *fnode) {
	c.walk(root, func(n *fnode) {
		if n.op != fLeaf {
			return
		}
		if _, ok := c.leafSlot[n.arg]; !ok {
			c.leafSlot[n.arg] = len(c.p.leaves)
			c.p.leaves = append(c.p.leaves, n.arg)
		}
	})
}

// param returns the index of s in the parameter table.
func (c *fcompiler) param(s sref) int {
	if s.arg < 0 {
		bits := math.Float64bits(s.c)
		if i, ok := c.consts[bits]; ok {
			return i
		}
		c.consts[bits] = len(c.p.params)
	}
	c.p.params = append(c.p.params, s)
	return len(c.p.params) - 1
}

// emit emits the code of n (in the result slot when top) and returns the
// slot of its value. Registers of operands are free once n is computed,
// and n may take one of them: the kernels allow d to be x or y.
func (c *fcompiler) emit(n *fnode, top bool) int {
	if n.op == fLeaf {
		return c.leafSlot[n.arg]
	}
	in := finstr{op: n.op}
	in.x = c.emit(n.x, false)
	in.y = in.x
	if n.op.binary() {
		in.y = c.emit(n.y, false)
	}
	nl := len(c.p.leaves)
	for _, s := range []int{in.x, in.y} {
		if s >= nl && !contains(c.free, s) {
			c.free = append(c.free, s)
		}
	}
	switch {
	case top:
		in.d = -1 // the result slot, numbered once the registers are known
	case len(c.free) > 0:
		in.d = c.free[len(c.free)-1]
		c.free = c.free[:len(c.free)-1]
	default:
		in.d = nl + c.p.nregs
		c.p.nregs++
	}
	switch n.op {
	case fScale, fAddS, fRDivS:
		in.pidx = c.param(n.p)
	case fAffine:
		in.pidx, in.qidx = c.param(n.p), c.param(n.q)
	}
	c.p.code = append(c.p.code, in)
	if top {
		c.p.code[len(c.p.code)-1].d = nl + c.p.nregs
	}
	return in.d
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// fval is a typed subexpression: a tensor (t) or a scalar (s).
type fval struct {
	t *fnode
	s sref
}

// fparser parses and types an expression (recursive descent, Go's
// precedence).
type fparser struct {
	src     string
	pos     int
	tok     byte // 0 at the end; 'n' number, 'i' identifier, else the character
	lit     string
	n       int
	scalars uint32
	used    [maxFuseArgs]bool
}

func (ps *fparser) fail(format string, args ...any) {
	panic(fuseError(fmt.Sprintf(format, args...)))
}

func (ps *fparser) text() string {
	switch ps.tok {
	case 0:
		return "end"
	case 'n', 'i':
		return strconv.Quote(ps.lit)
	}
	return strconv.Quote(string(ps.tok))
}

func (ps *fparser) next() {
	for ps.pos < len(ps.src) && (ps.src[ps.pos] == ' ' || ps.src[ps.pos] == '\t') {
		ps.pos++
	}
	if ps.pos == len(ps.src) {
		ps.tok, ps.lit = 0, ""
		return
	}
	start := ps.pos
	ch := ps.src[ps.pos]
	switch {
	case ch >= '0' && ch <= '9' || ch == '.':
		for ps.pos < len(ps.src) {
			c := ps.src[ps.pos]
			if c >= '0' && c <= '9' || c == '.' {
				ps.pos++
				continue
			}
			if (c == 'e' || c == 'E') && ps.pos+1 < len(ps.src) {
				ps.pos++
				if s := ps.src[ps.pos]; s == '+' || s == '-' {
					ps.pos++
				}
				continue
			}
			break
		}
		ps.tok = 'n'
	case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
		for ps.pos < len(ps.src) {
			c := ps.src[ps.pos]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				break
			}
			ps.pos++
		}
		ps.tok = 'i'
	default:
		ps.pos++
		ps.tok = ch
	}
	ps.lit = ps.src[start:ps.pos]
}

func (ps *fparser) expect(tok byte) {
	if ps.tok != tok {
		ps.fail("%s where %q was expected", ps.text(), string(tok))
	}
	ps.next()
}

func (ps *fparser) expr() fval {
	x := ps.term()
	for ps.tok == '+' || ps.tok == '-' {
		op := ps.tok
		ps.next()
		x = ps.binary(op, x, ps.term())
	}
	return x
}

func (ps *fparser) term() fval {
	x := ps.unary()
	for ps.tok == '*' || ps.tok == '/' {
		op := ps.tok
		ps.next()
		x = ps.binary(op, x, ps.unary())
	}
	return x
}

func (ps *fparser) unary() fval {
	if ps.tok != '-' {
		return ps.primary()
	}
	ps.next()
	x := ps.unary()
	switch {
	case x.t != nil:
		return fval{t: &fnode{op: fNeg, x: x.t}}
	case x.s.arg < 0:
		x.s.c = -x.s.c
		return x
	}
	ps.fail("negated scalar operand %c: only T - s negates a scalar", 'a'+x.s.arg)
	return x
}

func (ps *fparser) primary() fval {
	switch ps.tok {
	case 'n':
		c, err := strconv.ParseFloat(ps.lit, 64)
		if err != nil {
			ps.fail("bad number %q", ps.lit)
		}
		ps.next()
		return fval{s: sref{arg: -1, c: c}}
	case '(':
		ps.next()
		x := ps.expr()
		ps.expect(')')
		return x
	case 'i':
		name := ps.lit
		ps.next()
		if ps.tok == '(' {
			return ps.call(name)
		}
		if len(name) != 1 || name[0] < 'a' || int(name[0]-'a') >= ps.n {
			ps.fail("unknown operand %q (%d operands)", name, ps.n)
		}
		i := int(name[0] - 'a')
		ps.used[i] = true
		if ps.scalars&(1<<i) != 0 {
			return fval{s: sref{arg: i}}
		}
		return fval{t: &fnode{op: fLeaf, arg: i}}
	}
	ps.fail("unexpected %s", ps.text())
	return fval{}
}

func (ps *fparser) call(name string) fval {
	fn, ok := fuseCalls[name]
	if !ok {
		ps.fail("unknown function %s", name)
	}
	ps.expect('(')
	var args []fval
	for ps.tok != ')' {
		if len(args) > 0 {
			ps.expect(',')
		}
		args = append(args, ps.expr())
	}
	ps.next()
	if len(args) != len(fn.args) {
		ps.fail("%s has %d arguments, want %d", name, len(args), len(fn.args))
	}
	for i, a := range args {
		if (fn.args[i] == 't') != (a.t != nil) {
			kind := map[byte]string{'t': "a tensor", 's': "a scalar"}[fn.args[i]]
			ps.fail("argument %d of %s is not %s", i+1, name, kind)
		}
	}
	n := &fnode{op: fn.op, x: args[0].t}
	switch len(args) {
	case 2:
		n.y = args[1].t
	case 3:
		n.p, n.q = args[1].s, args[2].s
	}
	return fval{t: n}
}

// binary types x op y (see Fuse for the forms).
func (ps *fparser) binary(op byte, x, y fval) fval {
	tt, ts, st := x.t != nil && y.t != nil, x.t != nil && y.t == nil, x.t == nil && y.t != nil
	node := func(op fop, t *fnode, p sref) fval { return fval{t: &fnode{op: op, x: t, p: p}} }
	switch {
	case tt:
		return fval{t: &fnode{op: map[byte]fop{'+': fAdd, '-': fSub, '*': fMul, '/': fDiv}[op], x: x.t, y: y.t}}
	case ts && op == '+':
		return node(fAddS, x.t, y.s)
	case st && op == '+':
		return node(fAddS, y.t, x.s)
	case ts && op == '-':
		s := y.s
		if s.arg < 0 {
			s.c = -s.c
		} else {
			s.neg = !s.neg
		}
		return node(fAddS, x.t, s)
	case st && op == '-':
		return fval{t: &fnode{op: fAffine, x: y.t, p: sref{arg: -1, c: -1}, q: x.s}}
	case ts && op == '*':
		return node(fScale, x.t, y.s)
	case st && op == '*':
		return node(fScale, y.t, x.s)
	case st && op == '/':
		return node(fRDivS, y.t, x.s)
	case ts && op == '/':
		ps.fail("a tensor divided by a scalar (no such operation)")
	}
	ps.fail("%c of two scalars", op)
	return fval{}
}

// shape returns the result's shape and dtype for the tensor operands ts,
// and false when the separate operations must run instead: a dtype
// differs, a tensor is not on the CPU, shapes do not broadcast (an
// operation panics), or an intermediate result is broadcast to a larger
// shape (computing it per element of the result would repeat work).
func (p *fprog) shape(ts []*Tensor) ([]int, DType, bool) {
	first := ts[p.leaves[0]]
	same := true
	for _, i := range p.leaves {
		t := ts[i]
		if t.dtype != first.dtype || t.dev != CPU {
			return nil, 0, false
		}
		same = same && sameShape(t.shape, first.shape)
	}
	if same {
		return first.shape, first.dtype, true
	}
	s, ok := p.nodeShape(p.root, ts)
	return s, first.dtype, ok
}

// nodeShape returns the shape of n's value, and false as shape does.
func (p *fprog) nodeShape(n *fnode, ts []*Tensor) ([]int, bool) {
	if n.op == fLeaf {
		return ts[n.arg].shape, true
	}
	x, ok := p.nodeShape(n.x, ts)
	if !ok || !n.op.binary() {
		return x, ok
	}
	y, ok := p.nodeShape(n.y, ts)
	if !ok {
		return nil, false
	}
	switch n.op {
	case fTanhJVP, fSigmoidJVP, fReLUJVP:
		return x, sameShape(x, y)
	}
	s, ok := broadcastShape(x, y)
	if !ok {
		return nil, false
	}
	size := prod(s)
	if n.x.op != fLeaf && prod(x) < size || n.y.op != fLeaf && prod(y) < size {
		return nil, false
	}
	return s, true
}

// Leaf modes: read in place, one value repeated, or gathered by a loop.
const (
	leafDirect = iota
	leafSplat
	leafGather
)

type fleaf[T Float] struct {
	mode uint8
	data []T // direct: from the first element; gather: the backing slice
	v    T
	l    *loop
}

// fexec is one evaluation of a program into out.
type fexec[T Float] struct {
	p      *fprog
	out    []T
	ss     [maxFuseArgs]float64
	leaves [maxFuseArgs]fleaf[T]
}

func fuseApply[T Float](p *fprog, out *Tensor, ts []*Tensor, ss []float64) {
	n := out.Size()
	if n == 0 {
		return
	}
	var e fexec[T]
	e.p = p
	e.out = data[T](out)[out.offset : out.offset+n]
	copy(e.ss[:], ss)
	for k, i := range p.leaves {
		t := ts[i]
		lf := &e.leaves[k]
		switch {
		case sameShape(t.shape, out.shape) && t.IsContiguous():
			lf.mode, lf.data = leafDirect, data[T](t)[t.offset:t.offset+n]
		case t.Size() == 1:
			lf.mode, lf.v = leafSplat, data[T](t)[t.offset]
		default:
			lf.mode, lf.data, lf.l = leafGather, data[T](t), newLoop(out.shape, t)
		}
	}
	if g := p.grain(); n < g || Threads() <= 1 {
		e.run(0, n)
	} else {
		pe := new(fexec[T])
		*pe = e
		parallel(n, g, pe.run)
	}
}

var fuseScratch64, fuseScratch32 sync.Pool

// scratch returns a pooled slice of at least n elements.
func scratch[T Float](n int) *[]T {
	var z T
	pool := &fuseScratch64
	if _, ok := any(z).(float32); ok {
		pool = &fuseScratch32
	}
	if s, ok := pool.Get().(*[]T); ok && len(*s) >= n {
		return s
	}
	s := make([]T, n)
	return &s
}

func putScratch[T Float](s *[]T) {
	var z T
	if _, ok := any(z).(float32); ok {
		fuseScratch32.Put(s)
	} else {
		fuseScratch64.Put(s)
	}
}

// run computes the elements [lo, hi) of the result, block by block.
func (e *fexec[T]) run(lo, hi int) {
	p := e.p
	nl := len(p.leaves)
	// Registers, then a buffer per leaf that is not read in place.
	sc := scratch[T]((p.nregs + nl) * fuseBlock)
	buf := *sc
	var slotBuf [maxFuseSlots][]T
	slots := slotBuf[:]
	if p.slots() > maxFuseSlots {
		slots = make([][]T, p.slots())
	}
	for r := range p.nregs {
		slots[nl+r] = buf[r*fuseBlock : (r+1)*fuseBlock]
	}
	var parBuf [maxFuseParams]T
	params := parBuf[:]
	if len(p.params) > maxFuseParams {
		params = make([]T, len(p.params))
	}
	for i, s := range p.params {
		params[i] = T(s.value(e.ss[:]))
	}
	leafBuf := func(k int) []T {
		o := (p.nregs + k) * fuseBlock
		return buf[o : o+fuseBlock]
	}
	for k := range nl {
		if lf := &e.leaves[k]; lf.mode == leafSplat {
			b := leafBuf(k)
			for i := range b {
				b[i] = lf.v
			}
		}
	}
	res := nl + p.nregs
	for c := lo; c < hi; c += fuseBlock {
		m := min(fuseBlock, hi-c)
		for k := range nl {
			lf := &e.leaves[k]
			switch lf.mode {
			case leafDirect:
				slots[k] = lf.data[c : c+m]
			case leafSplat:
				slots[k] = leafBuf(k)[:m]
			default:
				b := leafBuf(k)[:m]
				gather(lf.l, lf.data, b, c)
				slots[k] = b
			}
		}
		slots[res] = e.out[c : c+m]
		for _, in := range p.code {
			fuseStep(in.op, slots[in.d][:m], slots[in.x][:m], slots[in.y][:m], params[in.pidx], params[in.qidx])
		}
	}
	putScratch(sc)
}

// gather copies the elements [lo, lo+len(b)) of the loop l over src into b.
func gather[T Float](l *loop, src, b []T, lo int) {
	st := l.inner(0)
	pos := 0
	l.each(lo, lo+len(b), func(o [3]int, cnt int) {
		d := b[pos : pos+cnt]
		switch st {
		case 1:
			copy(d, src[o[0]:o[0]+cnt])
		case 0:
			v := src[o[0]]
			for i := range d {
				d[i] = v
			}
		default:
			for i := range d {
				d[i] = src[o[0]+i*st]
			}
		}
		pos += cnt
	})
}

// fuseUnary and fuseBinary map each operation of a fused expression to
// the separate operation's kernel (kernels.go), so that a fused step
// computes each element by the very formula of the unfused call.
var (
	fuseUnary = map[fop]unOp{
		fNeg: uNeg, fExp: uExp, fLog: uLog, fTanh: uTanh, fSigmoid: uSigmoid, fReLU: uReLU,
		fSqrt: uSqrt, fAbs: uAbs, fSquare: uSquare, fSin: uSin, fCos: uCos, fSign: uSign,
		fStep: uStep, fLog1p: uLog1p, fExpm1: uExpm1,
		fScale: uMulS, fAddS: uAddS, fAffine: uAffine, fRDivS: uRDivS,
	}
	fuseBinary = map[fop]binOp{
		fAdd: bAdd, fSub: bSub, fMul: bMul, fDiv: bDiv, fPow: bPow, fMax: bMax, fMin: bMin,
		fTanhJVP: bTanhGrad, fSigmoidJVP: bSigmoidGrad, fReLUJVP: bReLUGrad,
	}
)

// fuseStep applies op to a block: d = op(x, y, p, q), by the kernel of
// the separate operation.
func fuseStep[T Float](op fop, d, x, y []T, p, q T) {
	if u, ok := fuseUnary[op]; ok {
		unaryVec(u, d, x, p, q)
		return
	}
	if b, ok := fuseBinary[op]; ok {
		binVV(b, d, x, y)
		return
	}
	panic("tensorops: internal error: unknown fused op")
}
