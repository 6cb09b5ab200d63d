package driver

// This file defines the random arguments of TestOptimizationSameNumbers:
// the candidate sizes of slices and shapes of tensors (argPlan), the
// search for the first candidate a derivative runs with (findPlan), the
// random values (randomArgs), the comparison of tensors, and the natives
// of the standard library's functions generated code calls.

import (
	"fmt"
	"go/types"
	"math/rand/v2"
	"reflect"
	"strings"
	"unicode"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/tensorops"
)

// argPlan says which sizes randomArgs gives: slices of length n (and the
// last []float64 parameter n² elements when square: a Hessian's h), and
// each tensor the shape of its group (see tensorGroups) in shapes, or
// shape when shapes does not name it.
type argPlan struct {
	n      int
	square bool
	shape  []int
	shapes map[string][]int
	// params gives the shapes of tensor parameters by name, before
	// shapes and shape.
	params map[string][]int
}

func (p argPlan) String() string {
	s := fmt.Sprintf("slices of length %d", p.n)
	if p.square {
		s += ", the last []float64 of length n²"
	}
	if p.params != nil {
		s += fmt.Sprintf(", tensor parameters of shapes %v", p.params)
	}
	if p.shapes != nil {
		s += fmt.Sprintf(", tensors of shapes %v", p.shapes)
	} else if p.shape != nil {
		s += fmt.Sprintf(", tensors of shape %v", p.shape)
	}
	return s
}

// Candidate sizes, most likely first: slice lengths (some cases need a
// fixed dimension: 2 for a point in the plane, 6 for BiggsEXP6, ...),
// and tensor shapes (small first: the Hessians of tensor functions cost
// the square of the size in the interpreter), tried for all tensors at once and then, for up to
// maxGroups groups, group by group (from groupShapes, then rowShapes).
var (
	sliceLens    = []int{4, 3, 2, 6, 1, 5, 8, 10, 7, 9, 12, 16}
	tensorShapes = [][]int{{2, 2}, {2, 3}, {3, 3}, {3}, {}, {2, 3, 3}, {2, 3, 3, 3}, {3, 4}, {4, 3}, {4}, {1, 3}, {3, 1}, {2, 6}, {12}, {5, 6}, {6, 6}, {2, 3, 6, 6}}
	groupShapes  = [][]int{{3, 3}, {3}, {}, {2, 3, 3}, {2, 3, 3, 3}}
	// rowShapes serve operations that slice, pad or concatenate along
	// axis 1 at fixed offsets.
	rowShapes = [][]int{{3, 2}, {3, 3}, {3, 4}, {3, 5}, {3, 6}, {3, 7}, {3, 8}}
)

// maxGroups bounds the groups of tensors whose shapes findPlan tries one
// by one.
const maxGroups = 3

// argPlans returns the candidate plans for f, most likely first.
func argPlans(f *ir.Func) []argPlan {
	var slices, tensors bool
	for _, p := range f.Params {
		walkType(p.Type, func(t types.Type) {
			if ir.IsTensor(t) {
				tensors = true
			} else if _, ok := t.Underlying().(*types.Slice); ok {
				slices = true
			}
		})
	}
	lens := []int{4}
	if slices {
		lens = sliceLens
	}
	var shapes []argPlan
	if tensors {
		for _, s := range tensorShapes {
			shapes = append(shapes, argPlan{shape: s})
		}
		if groups := tensorGroups(f); len(groups) > 1 && len(groups) <= maxGroups {
			shapes = append(shapes, groupPlans(groups, groupShapes)...)
			shapes = append(shapes, groupPlans(groups, rowShapes)...)
		}
	} else {
		shapes = []argPlan{{}}
	}
	var plans []argPlan
	for _, square := range []bool{false, true} {
		if square && !slices {
			break
		}
		for _, n := range lens {
			for _, s := range shapes {
				plans = append(plans, argPlan{n: n, square: square, shape: s.shape, shapes: s.shapes})
			}
		}
	}
	return plans
}

// groupPlans returns the plans that give each group one of shapes, every
// combination.
func groupPlans(groups []string, shapes [][]int) []argPlan {
	var plans []argPlan
	idx := make([]int, len(groups))
	for {
		m := map[string][]int{}
		for i, g := range groups {
			m[g] = shapes[idx[i]]
		}
		plans = append(plans, argPlan{shapes: m})
		k := 0
		for k < len(idx) && idx[k] == len(shapes)-1 {
			idx[k] = 0
			k++
		}
		if k == len(idx) {
			return plans
		}
		idx[k]++
	}
}

// maxPlans bounds the candidates findPlan tries.
const maxPlans = 1000

// findPlan returns the first candidate plan with which f runs on m
// without an error, or the error of the first candidate when none does;
// an error of the interpreter (unsupported) at once. When primal, the
// function f differentiates, runs on the arguments of f's parameters of
// the same names, the tensor parameters of f it lacks (the seeds of
// reverse mode) get the shapes of its tensor results, in order.
func findPlan(m *interp.Machine, f, primal *ir.Func) (argPlan, error) {
	var first error
	for i, p := range argPlans(f) {
		if i == maxPlans {
			break
		}
		if primal != nil {
			p = seedShapes(m, f, primal, p)
		}
		_, err := m.Call(f, randomArgs(f, p, 0)...)
		if err == nil {
			return p, nil
		}
		if unsupported(err) {
			return p, err
		}
		if first == nil {
			first = err
		}
	}
	return argPlan{}, first
}

// seedShapes returns p with the shapes of f's tensor parameters that
// primal lacks set to those of primal's tensor results on p's arguments,
// in order, when primal runs on them.
func seedShapes(m *interp.Machine, f, primal *ir.Func, p argPlan) argPlan {
	names := map[string]bool{}
	for _, q := range primal.Params {
		names[q.Name] = true
	}
	var seeds []string
	byName := map[string]interp.Value{}
	args := randomArgs(f, p, 0)
	for i, q := range f.Params {
		byName[q.Name] = args[i]
		if !names[q.Name] && !names[group(f, q.Name)] && ir.IsTensor(q.Type) {
			seeds = append(seeds, q.Name)
		}
	}
	if len(seeds) == 0 {
		return p
	}
	in := make([]interp.Value, len(primal.Params))
	for i, q := range primal.Params {
		v, ok := byName[q.Name]
		if !ok {
			return p
		}
		in[i] = v
	}
	res, err := m.Call(primal, in...)
	if err != nil {
		return p
	}
	var shapes [][]int
	for _, r := range res {
		if o, ok := r.(interp.Opaque); ok {
			if t, ok := o.V.(*tensorops.Tensor); ok {
				shapes = append(shapes, t.Shape())
			}
		}
	}
	if len(shapes) != len(seeds) {
		return p
	}
	q := p
	q.params = map[string][]int{}
	for i, s := range seeds {
		q.params[s] = shapes[i]
	}
	return q
}

// walkType calls visit on t and on the types of its elements and fields,
// each once, not looking into tensors.
func walkType(t types.Type, visit func(types.Type)) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		visit(t)
		if ir.IsTensor(t) {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Struct:
			for f := range u.Fields() {
				walk(f.Type())
			}
		}
	}
	walk(t)
}

// tensorGroups returns the groups of f's parameters that hold tensors, in
// order: a parameter's group is its name without the marks of a tangent
// or an adjoint (a, da, a1, a2, aBar are all a).
func tensorGroups(f *ir.Func) []string {
	var groups []string
	seen := map[string]bool{}
	for _, p := range f.Params {
		holds := false
		walkType(p.Type, func(t types.Type) { holds = holds || ir.IsTensor(t) })
		if g := group(f, p.Name); holds && !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
	}
	return groups
}

// group returns the group of f's parameter name.
func group(f *ir.Func, name string) string {
	base := strings.TrimRightFunc(strings.TrimSuffix(name, "Bar"), unicode.IsDigit)
	if base == "" {
		return name
	}
	if strings.HasPrefix(base, "d") && base != "d" {
		for _, p := range f.Params {
			if p.Name == base[1:] {
				return base[1:]
			}
		}
	}
	return base
}

// randomArgs returns random arguments for f's parameters, the same for the
// same plan, seed and parameter types: floats standard normal, integers
// in [0, 3), slices of the plan's length, pointers to fresh variables,
// float64 tensors of the plan's shapes with elements uniform in
// [0.5, 1.5) for even seeds (in the domain of Log and Sqrt) and standard
// normal for odd ones.
func randomArgs(f *ir.Func, plan argPlan, seed uint64) []interp.Value {
	g := &argGen{rnd: rand.New(rand.NewPCG(seed, 77)), plan: plan, seed: seed}
	last := -1
	if plan.square {
		for i, p := range f.Params {
			if types.Identical(p.Type.Underlying(), types.NewSlice(types.Typ[types.Float64])) {
				last = i
			}
		}
	}
	args := make([]interp.Value, len(f.Params))
	for i, p := range f.Params {
		g.group = group(f, p.Name)
		g.param = p.Name
		g.n = plan.n
		if i == last {
			g.n = plan.n * plan.n
		}
		args[i] = g.value(p.Type, 0)
	}
	return args
}

type argGen struct {
	rnd   *rand.Rand
	plan  argPlan
	seed  uint64
	group string // of the parameter being made
	param string // its name
	n     int    // its slices' length
}

func (g *argGen) value(t types.Type, depth int) interp.Value {
	if ir.IsTensor(t) {
		shape := g.plan.shape
		if s, ok := g.plan.shapes[g.group]; ok {
			shape = s
		}
		if s, ok := g.plan.params[g.param]; ok {
			shape = s
		}
		var x *tensorops.Tensor
		if g.seed%2 == 0 {
			x = tensorops.RandU(g.rnd, tensorops.Float64, 0.5, 1.5, shape...)
		} else {
			x = tensorops.RandN(g.rnd, tensorops.Float64, shape...)
		}
		return interp.Opaque{V: x}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch z := interp.Zero(t).(type) {
		case float64:
			return g.rnd.NormFloat64()
		case float32:
			return float32(g.rnd.NormFloat64())
		case int:
			return g.rnd.IntN(3)
		case int64:
			return int64(g.rnd.IntN(3))
		case int32:
			return int32(g.rnd.IntN(3))
		case uint:
			return uint(g.rnd.IntN(3))
		case bool:
			return g.rnd.IntN(2) == 0
		default:
			return z
		}
	case *types.Slice:
		if depth > 3 {
			return interp.Slice{}
		}
		s := interp.Slice{Elems: make([]interp.Value, g.n)}
		for i := range s.Elems {
			s.Elems[i] = g.value(u.Elem(), depth+1)
		}
		return s
	case *types.Pointer:
		if depth > 3 {
			return interp.Pointer{}
		}
		return interp.NewVar(g.value(u.Elem(), depth+1))
	case *types.Struct:
		s := &interp.Struct{Fields: make([]interp.Value, u.NumFields())}
		for i := range s.Fields {
			s.Fields[i] = g.value(u.Field(i).Type(), depth+1)
		}
		return s
	case *types.Array:
		a := &interp.Array{Elems: make([]interp.Value, u.Len())}
		for i := range a.Elems {
			a.Elems[i] = g.value(u.Elem(), depth+1)
		}
		return a
	}
	return interp.Zero(t)
}

// differOpaque returns "" when x and y are equal opaque values: tensors
// of the same dtype and shape whose elements are close (see differ), and
// otherwise what differs.
func differOpaque(x, y interp.Opaque) string {
	a, ok1 := x.V.(*tensorops.Tensor)
	b, ok2 := y.V.(*tensorops.Tensor)
	if !ok1 || !ok2 {
		if x != y {
			return fmt.Sprintf("%v and %v", x.V, y.V)
		}
		return ""
	}
	if a.DType() != b.DType() || !reflect.DeepEqual(a.Shape(), b.Shape()) {
		return fmt.Sprintf("tensors of dtype %v shape %v and dtype %v shape %v", a.DType(), a.Shape(), b.DType(), b.Shape())
	}
	a, b = a.Contiguous(), b.Contiguous()
	var xs, ys []interp.Value
	if a.DType() == tensorops.Float32 {
		for i, v := range a.Float32s() {
			xs, ys = append(xs, v), append(ys, b.Float32s()[i])
		}
	} else {
		for i, v := range a.Float64s() {
			xs, ys = append(xs, v), append(ys, b.Float64s()[i])
		}
	}
	if msg := differAll(xs, ys); msg != "" {
		return fmt.Sprintf("tensors of shape %v: %s", a.Shape(), msg)
	}
	return ""
}

// slicesGrow is slices.Grow for the interpreter: s with room for n more
// elements (a new backing array of capacity len(s)+n when s has less).
func slicesGrow(args []interp.Value) ([]interp.Value, error) {
	s, n := args[0].(interp.Slice), args[1].(int)
	if n < 0 {
		return nil, fmt.Errorf("cannot be negative")
	}
	if cap(s.Elems)-len(s.Elems) >= n {
		return []interp.Value{s}, nil
	}
	elems := make([]interp.Value, len(s.Elems), len(s.Elems)+n)
	copy(elems, s.Elems)
	if len(s.Elems) > 0 {
		spare := elems[len(elems):cap(elems)]
		for i := range spare {
			spare[i] = zeroLike(s.Elems[0])
		}
	}
	return []interp.Value{interp.Slice{Elems: elems}}, nil
}

// zeroLike returns the zero of x's basic kind, or nil.
func zeroLike(x interp.Value) interp.Value {
	switch x.(type) {
	case float64, float32, int, bool, string:
		return reflect.Zero(reflect.TypeOf(x)).Interface()
	}
	return nil
}

// slicesClone is slices.Clone for the interpreter: a copy of s in a new
// backing array (nil for nil).
func slicesClone(args []interp.Value) ([]interp.Value, error) {
	s := args[0].(interp.Slice)
	if s.Elems == nil {
		return []interp.Value{s}, nil
	}
	elems := make([]interp.Value, len(s.Elems))
	for i, e := range s.Elems {
		elems[i] = interp.NewVar(e).Load() // a copy of a struct or array
	}
	return []interp.Value{interp.Slice{Elems: elems}}, nil
}
