package tensorops

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// laneChecked records the functions TestLanes checked.
var laneChecked = map[string]bool{}

// laneArg is an operand of a lane test: shared by every direction (one
// tensor), or one tensor per direction (stacked and marked), or nil.
type laneArg struct {
	shared *Tensor
	each   []*Tensor
}

// stacked returns the directions of ts as one marked tensor [L, …].
func stacked(ts []*Tensor) *Tensor {
	var parts []*Tensor
	for _, t := range ts {
		parts = append(parts, Unsqueeze(t, 0))
	}
	return Lanes(Concat(0, parts...))
}

// checkLanes runs f once on the stacked arguments and once per direction
// on the direction's arguments, and checks that the stacked result is
// marked and holds the directions' results (or, shared, is unmarked and
// equal to each).
func checkLanes(t *testing.T, name string, L int, f func(args ...*Tensor) *Tensor, args ...laneArg) {
	t.Helper()
	laneChecked[strings.Fields(name)[0]] = true
	in := make([]*Tensor, len(args))
	for i, a := range args {
		if a.each != nil {
			in[i] = stacked(a.each)
		} else {
			in[i] = a.shared
		}
	}
	got := f(in...)
	var want []*Tensor
	for l := range L {
		for i, a := range args {
			if a.each != nil {
				in[i] = a.each[l]
			} else {
				in[i] = a.shared
			}
		}
		want = append(want, f(in...))
	}
	if want[0] == nil {
		if got != nil {
			t.Errorf("%s: got %v, want nil", name, got.shape)
		}
		return
	}
	if got == nil {
		t.Fatalf("%s: got nil, want %v", name, want[0].shape)
	}
	if !IsLanes(got) {
		t.Fatalf("%s: result of shape %v not marked", name, got.shape)
	}
	if got.shape[0] != L || !sameShape(got.shape[1:], want[0].shape) {
		t.Fatalf("%s: shape %v, want %d directions of %v", name, got.shape, L, want[0].shape)
	}
	for l := range L {
		g := sliceView(got.plain(), 0, l, l+1)
		g = g.view(g.shape[1:], g.strides[1:], g.offset)
		if d := MaxAbsDiff(g, want[l]); !(d <= 1e-12) {
			t.Errorf("%s: direction %d differs by %g", name, l, d)
		}
	}
}

func TestLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const L = 3
	r := func(shape ...int) *Tensor { return RandN(rng, Float64, shape...) }
	each := func(shape ...int) laneArg {
		var ts []*Tensor
		for range L {
			ts = append(ts, r(shape...))
		}
		return laneArg{each: ts}
	}
	shared := func(shape ...int) laneArg { return laneArg{shared: r(shape...)} }
	none := laneArg{}
	two := func(op func(a, b *Tensor) *Tensor) func(args ...*Tensor) *Tensor {
		return func(args ...*Tensor) *Tensor { return op(args[0], args[1]) }
	}
	one := func(op func(a *Tensor) *Tensor) func(args ...*Tensor) *Tensor {
		return func(args ...*Tensor) *Tensor { return op(args[0]) }
	}

	// Elementwise, broadcasting against shared operands of every rank.
	for _, c := range []struct {
		name string
		a, b laneArg
	}{
		{"same", each(2, 3), each(2, 3)},
		{"shared", each(2, 3), shared(2, 3)},
		{"shared row", each(2, 3), shared(3)},
		{"lower rank", each(3), shared(4, 2, 3)},
		{"unit axis", each(1, 3), shared(2, 3)},
		{"shared first", shared(2, 3), each(1, 3)},
	} {
		checkLanes(t, "Add "+c.name, L, two(Add), c.a, c.b)
		checkLanes(t, "Sub "+c.name, L, two(Sub), c.a, c.b)
		checkLanes(t, "Mul "+c.name, L, two(Mul), c.a, c.b)
		checkLanes(t, "Div "+c.name, L, two(Div), c.a, c.b)
		checkLanes(t, "Fuse "+c.name, L, func(a ...*Tensor) *Tensor { return Fuse("2*a*b + a - 0.5*b*b", a[0], a[1]) }, c.a, c.b)
		checkLanes(t, "Fuse3 "+c.name, L, func(a ...*Tensor) *Tensor { return Fuse("a*b + c", a[0], a[1], a[2]) }, c.a, c.b, shared(3))
	}
	checkLanes(t, "Add nil", L, two(Add), each(2, 3), none)
	checkLanes(t, "Sub nil", L, two(Sub), none, each(2, 3))
	checkLanes(t, "Fuse nil", L, func(a ...*Tensor) *Tensor { return Fuse("a*b + c", a[0], a[1], a[2]) }, each(2, 3), none, each(2, 3))
	checkLanes(t, "Fuse scalar", L, func(a ...*Tensor) *Tensor { return Fuse("a*b + c", a[0], 1.5, a[1]) }, each(2, 3), shared(3))
	checkLanes(t, "Pow", L, two(func(a, b *Tensor) *Tensor { return Pow(Abs(a), b) }), each(2, 3), shared(3))
	checkLanes(t, "Maximum", L, two(Maximum), each(2, 3), shared(3))
	checkLanes(t, "Minimum", L, two(Minimum), shared(3), each(2, 3))
	for name, op := range map[string]func(a *Tensor) *Tensor{
		"Neg": Neg, "Exp": Exp, "Tanh": Tanh, "Sigmoid": Sigmoid, "ReLU": ReLU, "Abs": Abs, "Square": Square,
		"Sin": Sin, "Cos": Cos, "Sign": Sign, "Step": Step, "Expm1": Expm1, "GELU": GELU, "SiLU": SiLU,
		"Softplus": Softplus, "Erf": Erf,
		"Log":       func(a *Tensor) *Tensor { return Log(Abs(a)) },
		"Log1p":     func(a *Tensor) *Tensor { return Log1p(Abs(a)) },
		"Sqrt":      func(a *Tensor) *Tensor { return Sqrt(Abs(a)) },
		"Scale":     func(a *Tensor) *Tensor { return Scale(a, 3) },
		"AddScalar": func(a *Tensor) *Tensor { return AddScalar(a, 3) },
		"Affine":    func(a *Tensor) *Tensor { return Affine(a, 3, 1) },
		"ScalarDiv": func(a *Tensor) *Tensor { return ScalarDiv(2, a) },
		"PowScalar": func(a *Tensor) *Tensor { return PowScalar(a, 3) },
	} {
		checkLanes(t, name, L, one(op), each(2, 3))
	}
	for _, c := range []struct {
		name  string
		y, dx laneArg
	}{{"shared y", shared(2, 3), each(2, 3)}, {"both", each(2, 3), each(2, 3)}, {"shared dx", each(2, 3), shared(2, 3)}} {
		checkLanes(t, "TanhJVP "+c.name, L, two(TanhJVP), c.y, c.dx)
		checkLanes(t, "SigmoidJVP "+c.name, L, two(SigmoidJVP), c.y, c.dx)
		checkLanes(t, "ReLUJVP "+c.name, L, two(ReLUJVP), c.y, c.dx)
		checkLanes(t, "GELUJVP "+c.name, L, two(GELUJVP), c.y, c.dx)
		checkLanes(t, "SiLUJVP "+c.name, L, two(SiLUJVP), c.y, c.dx)
	}
	checkLanes(t, "FuseInto", L, func(a ...*Tensor) *Tensor {
		return FuseInto(bufferLike(a[0]), "a*b + c", a[0], a[1], a[2])
	}, each(2, 3), shared(2, 3), each(2, 3))

	// Shapes: broadcast and summed back, direction by direction.
	checkLanes(t, "ExpandLike", L, two(ExpandLike), each(3), shared(2, 3))
	checkLanes(t, "ExpandLike same", L, two(ExpandLike), each(2, 3), shared(2, 3))
	checkLanes(t, "ExpandLike unit", L, two(ExpandLike), each(1, 3), shared(4, 2, 3))
	checkLanes(t, "SumLike", L, two(SumLike), each(2, 3), shared(3))
	checkLanes(t, "SumLike unit", L, two(SumLike), each(4, 2, 3), shared(1, 3))
	checkLanes(t, "SumLike same", L, two(SumLike), each(2, 3), shared(2, 3))
	checkLanes(t, "SumLike like", L, two(SumLike), each(2, 3), each(1, 3))

	// Products: vectors, matrices and batches, marked on either side or
	// both, transposed or not.
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			mm := func(a ...*Tensor) *Tensor { return MatMulT(a[0], a[1], ta, tb) }
			sa, sb := []int{2, 4}, []int{4, 5}
			if ta {
				sa = []int{4, 2}
			}
			if tb {
				sb = []int{5, 4}
			}
			name := fmt.Sprintf("MatMulT %v %v", ta, tb)
			checkLanes(t, name+" left", L, mm, each(sa...), shared(sb...))
			checkLanes(t, name+" right", L, mm, shared(sa...), each(sb...))
			checkLanes(t, name+" both", L, mm, each(sa...), each(sb...))
			checkLanes(t, name+" batch", L, mm, each(append([]int{6}, sa...)...), shared(sb...))
			checkLanes(t, name+" shared batch", L, mm, each(sa...), shared(append([]int{6}, sb...)...))
			checkLanes(t, name+" vector left", L, mm, each(4), shared(sb...))
			checkLanes(t, name+" vector right", L, mm, shared(sa...), each(4))
			checkLanes(t, name+" vectors", L, mm, each(4), shared(4))

			// The adjoints, with the product's shape for g.
			ga := func(a ...*Tensor) *Tensor { return MatMulGradA(a[0], a[1], a[2], ta, tb) }
			gb := func(a ...*Tensor) *Tensor { return MatMulGradB(a[0], a[1], a[2], ta, tb) }
			checkLanes(t, "MatMulGradA "+name+" g", L, ga, each(2, 5), shared(sa...), shared(sb...))
			checkLanes(t, "MatMulGradA "+name+" b", L, ga, shared(2, 5), shared(sa...), each(sb...))
			checkLanes(t, "MatMulGradA "+name+" both", L, ga, each(2, 5), shared(sa...), each(sb...))
			checkLanes(t, "MatMulGradB "+name+" g", L, gb, each(2, 5), shared(sa...), shared(sb...))
			checkLanes(t, "MatMulGradB "+name+" a", L, gb, shared(2, 5), each(sa...), shared(sb...))
			checkLanes(t, "MatMulGradA "+name+" batch", L, ga, each(6, 2, 5), shared(append([]int{6}, sa...)...), shared(sb...))
			checkLanes(t, "MatMulGradB "+name+" broadcast", L, gb, each(6, 2, 5), shared(append([]int{6}, sa...)...), shared(sb...))
			checkLanes(t, "MatMulGradA "+name+" vector", L, ga, each(5), shared(4), shared(sb...))
			checkLanes(t, "MatMulGradB "+name+" vector", L, gb, each(2), shared(sa...), shared(4))
		}
	}

	// The merged forms, primal and directions in one GEMM.
	w := r(4, 5)
	h := r(1, 4)
	var dh []*Tensor
	for range L {
		dh = append(dh, r(1, 4))
	}
	out := MatMulEach(w, false, h, stacked(dh), nil)
	if d := MaxAbsDiff(out[0], MatMul(h, w)); !(d <= 1e-12) || out[0].lanes || out[2] != nil {
		t.Errorf("MatMulEach: the primal differs by %g (marked %v)", d, out[0].lanes)
	}
	checkLanes(t, "MatMulEach", L, func(a ...*Tensor) *Tensor { return MatMulEach(w, false, h, a[0])[1] }, laneArg{each: dh})
	checkLanes(t, "MatMulGradAEach", L, func(a ...*Tensor) *Tensor { return MatMulGradAEach(h, w, false, r(1, 5), a[0])[1] }, each(1, 5))

	checkLanes(t, "MatMul", L, two(MatMul), each(2, 4), shared(4, 5))

	// In and out.
	for _, n := range []string{"Lanes", "UnlanesLike", "UnlanesOf", "UnlanesScalars", "SumLanes"} {
		laneChecked[n] = true // below
	}
	v := r(L, 2, 3)
	if u := UnlanesOf(Lanes(v), Lanes(v)); u.lanes || MaxAbsDiff(u, v) != 0 || UnlanesOf(nil, Lanes(v)) != nil {
		t.Errorf("UnlanesOf: %v", u)
	}
	if u := UnlanesOf(r(2, 3), Lanes(v)); u.lanes || !sameShape(u.shape, v.shape) {
		t.Errorf("UnlanesOf(shared): %v", u)
	}
	if u := UnlanesScalars(nil, Lanes(v)); u.lanes || !sameShape(u.shape, []int{L}) {
		t.Errorf("UnlanesScalars(nil): %v", u)
	}
	if s := SumAllLanes(Lanes(v)); !(MaxAbsDiff(UnlanesScalars(s, Lanes(v)), Sum(Reshape(v, L, -1), 1)) <= 1e-12) {
		t.Errorf("UnlanesScalars")
	}
	if s := SumLanes(Lanes(v)); !(MaxAbsDiff(s, Sum(v, 0)) <= 1e-12) || s.lanes {
		t.Errorf("SumLanes: %v", s)
	}
	if u := UnlanesLike(nil, Lanes(v)); u.lanes || !sameShape(u.shape, v.shape) || MaxAbsDiff(u, ZerosLike(v)) != 0 {
		t.Errorf("UnlanesLike(nil): %v", u)
	}
	if u := UnlanesLike(r(2, 3), Lanes(v)); u.lanes || !sameShape(u.shape, v.shape) {
		t.Errorf("UnlanesLike(shared): %v", u)
	}
	if u := UnlanesLike(Lanes(v), Lanes(v)); u.lanes || MaxAbsDiff(u, v) != 0 {
		t.Errorf("UnlanesLike: %v", u)
	}
}

func TestLanesPanics(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	a := Lanes(Zeros(3, 2))
	b := Lanes(Zeros(4, 2))
	mustPanic("directions differ", func() { Add(a, b) })
	mustPanic("marked twice", func() { Lanes(a) })
	mustPanic("0-D", func() { Lanes(Zeros()) })
	mustPanic("SumLanes of plain", func() { SumLanes(Zeros(2)) })
}

// TestLanesCoverage checks that TestLanes checks every function that
// gadgen's rule table lists as lane-aware (templates/stacked.go, read as
// text: the runtime does not import the compiler).
func TestLanesCoverage(t *testing.T) {
	t.Run("lanes", TestLanes)
	t.Run("shapes", TestLanesShapes)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../templates/stacked.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		kv, ok := x.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		lit, ok := kv.Key.(*ast.BasicLit)
		if !ok {
			return true
		}
		name, _ := strconv.Unquote(lit.Value)
		n++
		if !laneChecked[name] {
			t.Errorf("tensorops.%s is listed as lane-aware but TestLanes does not check it", name)
		}
		return true
	})
	if n < 30 {
		t.Errorf("read %d lane-aware functions from templates/stacked.go", n)
	}
}

func TestBases(t *testing.T) {
	like := Zeros(2, 3)
	b := Bases(like, 4, 8)
	if !sameShape(b.shape, []int{2, 2, 3}) {
		t.Fatalf("Bases: shape %v, want [2 2 3] (directions 4 and 5 of 6)", b.shape)
	}
	for l := range 2 {
		for i := range 6 {
			want := 0.0
			if i == 4+l {
				want = 1
			}
			if got := b.f64[l*6+i]; got != want {
				t.Errorf("Bases: direction %d element %d is %v", l, i, got)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Bases past the end: no panic")
		}
	}()
	Bases(like, 6, 1)
}

// TestLanesFuseCalls checks a fused expression whose functions (not only
// arithmetic) see directions: operation by operation.
func TestLanesFuseCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const L = 4
	var dx []*Tensor
	for range L {
		dx = append(dx, RandN(rng, Float64, 3, 3))
	}
	y := Tanh(RandN(rng, Float64, 3, 3))
	c := RandN(rng, Float64, 3, 3)
	checkLanes(t, "Fuse TanhJVP", L, func(a ...*Tensor) *Tensor { return Fuse("-2*a*TanhJVP(a, b + c)", y, a[0], c) }, laneArg{each: dx})
	checkLanes(t, "FuseInto TanhJVP", L, func(a ...*Tensor) *Tensor {
		return FuseInto(bufferLike(a[0]), "-2*a*TanhJVP(a, b + c)", y, a[0], c)
	}, laneArg{each: dx})
}

// bufferLike returns a fresh buffer of t's shape, marked as t is.
func bufferLike(t *Tensor) *Tensor {
	b := Scale(t.plain(), 1)
	if t.lanes {
		b = Lanes(b)
	}
	return b
}

// TestLanesShapes checks the lane-aware shape operations and reductions.
func TestLanesShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const L = 3
	each := func(shape ...int) laneArg {
		var ts []*Tensor
		for range L {
			ts = append(ts, RandN(rng, Float64, shape...))
		}
		return laneArg{each: ts}
	}
	one := func(f func(a *Tensor) *Tensor) func(args ...*Tensor) *Tensor {
		return func(args ...*Tensor) *Tensor { return f(args[0]) }
	}
	for _, axis := range []int{0, 1, -1} {
		checkLanes(t, fmt.Sprintf("Sum %d", axis), L, one(func(a *Tensor) *Tensor { return Sum(a, axis) }), each(2, 3))
		checkLanes(t, fmt.Sprintf("Mean %d", axis), L, one(func(a *Tensor) *Tensor { return Mean(a, axis) }), each(2, 3))
		checkLanes(t, fmt.Sprintf("Slice %d", axis), L, one(func(a *Tensor) *Tensor { return Slice(a, axis, 1, 2) }), each(2, 3))
		checkLanes(t, fmt.Sprintf("Unsqueeze %d", axis), L, one(func(a *Tensor) *Tensor { return Unsqueeze(a, axis) }), each(2, 3))
		s := RandN(rng, Float64, 2, 3)
		checkLanes(t, fmt.Sprintf("SoftmaxJVP %d", axis), L, one(func(a *Tensor) *Tensor { return SoftmaxJVP(Softmax(s, axis), a, axis) }), each(2, 3))
		checkLanes(t, fmt.Sprintf("LogSoftmaxJVP %d", axis), L, one(func(a *Tensor) *Tensor { return LogSoftmaxJVP(LogSoftmax(s, axis), a, axis) }), each(2, 3))
	}
	checkLanes(t, "ExpandAxis", L, func(a ...*Tensor) *Tensor { return ExpandAxis(a[0], Zeros(2, 4, 3), 1) }, each(2, 3))
	checkLanes(t, "MeanGrad", L, func(a ...*Tensor) *Tensor { return MeanGrad(a[0], Zeros(2, 4, 3), -2) }, each(2, 3))
	x, y := RandN(rng, Float64, 2, 3), RandN(rng, Float64, 2, 1)
	checkLanes(t, "ConcatJVP", L, func(a ...*Tensor) *Tensor { return ConcatJVP(1, x, y, a[0], a[1]) }, each(2, 3), each(2, 1))
	checkLanes(t, "ConcatJVP nil", L, func(a ...*Tensor) *Tensor { return ConcatJVP(-1, x, y, nil, a[0]) }, each(2, 1))
	checkLanes(t, "ConcatJVPJVP", L, func(a ...*Tensor) *Tensor { return ConcatJVPJVP(0, x, x, nil, nil, nil, nil, a[0], a[1]) }, each(2, 3), each(2, 3))
	checkLanes(t, "SumAllLanes", L, one(func(a *Tensor) *Tensor { return scalarLanes(a, SumAll, SumAllLanes) }), each(2, 3))
	checkLanes(t, "MeanAllLanes", L, one(func(a *Tensor) *Tensor { return scalarLanes(a, MeanAll, MeanAllLanes) }), each(2, 3))
	w := RandN(rng, Float64, 2, 3)
	dot := func(a *Tensor) float64 { return Dot(a, w) }
	checkLanes(t, "DotLanes", L, one(func(a *Tensor) *Tensor {
		return scalarLanes(a, dot, func(a *Tensor) *Tensor { return DotLanes(w, a) })
	}), each(2, 3))
	// Scalars of directions scale tensors direction by direction.
	checkLanes(t, "Mul scalar", L, func(a ...*Tensor) *Tensor { return Mul(w, scalarLanes(a[0], SumAll, SumAllLanes)) }, each(2, 3))
	s := SumAllLanes(Lanes(RandN(rng, Float64, L, 2)))
	if got, want := LaneSum(s), SumAll(s.plain()); got != want {
		t.Errorf("LaneSum: %v, want %v", got, want)
	}
	laneChecked["LaneSum"] = true
	acc, d3 := RandN(rng, Float64, 2, 3), RandN(rng, Float64, 3)
	checkLanes(t, "Accumulate", L, func(a ...*Tensor) *Tensor { return Accumulate(acc.Clone(), a[0]) }, each(2, 3))
	checkLanes(t, "Accumulate nil", L, func(a ...*Tensor) *Tensor { return Accumulate(nil, a[0]) }, each(2, 3))
	checkLanes(t, "Accumulate both", L, func(a ...*Tensor) *Tensor { return Accumulate(bufferLike(a[0]), a[1]) }, each(2, 3), each(2, 3))
	checkLanes(t, "AccumulateSumLike", L, func(a ...*Tensor) *Tensor { return AccumulateSumLike(d3.Clone(), a[0], Zeros(3)) }, each(2, 3))
	ma, mb := RandN(rng, Float64, 2, 4), RandN(rng, Float64, 4, 3)
	checkLanes(t, "AccumulateMatMulGradA", L, func(a ...*Tensor) *Tensor { return AccumulateMatMulGradA(ma.Clone(), a[0], ma, mb, false, false) }, each(2, 3))
	checkLanes(t, "AccumulateMatMulGradB", L, func(a ...*Tensor) *Tensor { return AccumulateMatMulGradB(mb.Clone(), a[0], ma, mb, false, false) }, each(2, 3))
	checkLanes(t, "Pad", L, one(func(a *Tensor) *Tensor { return Pad(a, -1, 1, 2) }), each(2, 3))
	checkLanes(t, "PadGrad", L, func(a ...*Tensor) *Tensor { return PadGrad(a[0], Zeros(2, 3), 1, 1) }, each(2, 6))
	checkLanes(t, "SliceGrad", L, func(a ...*Tensor) *Tensor { return SliceGrad(a[0], Zeros(4, 3), 0, 1) }, each(2, 3))
	checkLanes(t, "ConcatGrad", L, func(a ...*Tensor) *Tensor { return ConcatGrad(a[0], 1, 1, Zeros(2, 1), Zeros(2, 2)) }, each(2, 3))
	checkLanes(t, "Gather", L, one(func(a *Tensor) *Tensor { return Gather(a, 1, []int{2, 0, 2}) }), each(2, 3))
	checkLanes(t, "GatherGrad", L, func(a ...*Tensor) *Tensor { return GatherGrad(a[0], Zeros(2, 3), 1, []int{2, 0, 2}) }, each(2, 3))
	checkLanes(t, "Squeeze", L, one(func(a *Tensor) *Tensor { return Squeeze(a, 1) }), each(2, 1, 3))
	checkLanes(t, "Reshape", L, one(func(a *Tensor) *Tensor { return Reshape(a, 3, -1) }), each(2, 3))
	checkLanes(t, "ReshapeLike", L, one(func(a *Tensor) *Tensor { return ReshapeLike(a, Zeros(6)) }), each(2, 3))
	checkLanes(t, "Transpose", L, one(func(a *Tensor) *Tensor { return Transpose(a) }), each(2, 3, 4))
	checkLanes(t, "Transpose perm", L, one(func(a *Tensor) *Tensor { return Transpose(a, 1, 2, 0) }), each(2, 3, 4))
	checkLanes(t, "TransposeBack", L, one(func(a *Tensor) *Tensor { return TransposeBack(a, 1, 2, 0) }), each(3, 4, 2))
	checkLanes(t, "OrZerosLike", L, func(a ...*Tensor) *Tensor { return OrZerosLike(a[0], Zeros(2, 3)) }, each(2, 3))
	if z := OrZerosLike(nil, Lanes(Zeros(L, 2))); !z.lanes {
		t.Errorf("OrZerosLike(nil, directions): not marked")
	}
}

// scalarLanes is lane(a) for a tensor of directions and, for one
// direction's a, the 0-D tensor of one(a): a scalar as the lane-aware
// functions return it, direction by direction.
func scalarLanes(a *Tensor, one func(*Tensor) float64, lane func(*Tensor) *Tensor) *Tensor {
	if a.lanes {
		return lane(a)
	}
	return Full(Float64, one(a))
}

func TestParamsBasesLanes(t *testing.T) {
	like := []*Tensor{Zeros(2), nil, Zeros(2, 2)}
	// Directions 1 … 3 of 6: element 1 of the first tensor, elements 0
	// and 1 of the third.
	bs := ParamsBases(like, 1, 3)
	if bs[1] != nil || !bs[0].lanes || !bs[2].lanes || !sameShape(bs[0].shape, []int{3, 2}) || !sameShape(bs[2].shape, []int{3, 2, 2}) {
		t.Fatalf("ParamsBases: %v", bs)
	}
	flat := ParamsFlattenLanes(bs, bs, like)
	want := []float64{
		0, 1, 0, 0, 0, 0,
		0, 0, 1, 0, 0, 0,
		0, 0, 0, 1, 0, 0,
	}
	if !sameShape(flat.shape, []int{3, 6}) || flat.lanes {
		t.Fatalf("ParamsFlattenLanes: shape %v, marked %v", flat.shape, flat.lanes)
	}
	for i, w := range want {
		if flat.f64[i] != w {
			t.Fatalf("ParamsFlattenLanes: %v, want %v", flat.f64, want)
		}
	}
	// Past the first tensor only; a shared and a nil tensor.
	bs = ParamsBases(like, 4, 8)
	if bs[0] != nil || bs[2].shape[0] != 2 {
		t.Fatalf("ParamsBases from 4: %v", bs)
	}
	flat = ParamsFlattenLanes([]*Tensor{Full(Float64, 7, 2), nil, nil}, bs, like)
	if !sameShape(flat.shape, []int{2, 6}) || flat.f64[0] != 7 || flat.f64[7] != 7 || flat.f64[2] != 0 {
		t.Fatalf("ParamsFlattenLanes of a shared tensor: %v", flat)
	}
}
