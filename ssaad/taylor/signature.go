package taylor

// This file defines the options, signature and doc comment of a generated
// Taylor-mode function.

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// MaxOrder is the largest order=K accepted (ssaad.MaxOrder).
const MaxOrder = ssaad.MaxOrder

// config is what the options of a request say.
type config struct {
	order int
	// line: the varied inputs move on a line (seed=line): only their
	// first coefficients are parameters, the others are zero.
	line bool
	// lanes, when not zero, propagates L directions at once, sharing
	// the primal. At order 2 it is collapsed Taylor mode (for Laplacians;
	// the internal option collapsed=L): each direction keeps its first
	// coefficient, and one slot holds the sum of their second
	// coefficients. In forward mode (order 1) it is vector forward mode
	// (the internal option lanes=L of the Hessian's JVP): one tangent per
	// direction, dx1 … dxL.
	lanes int
	// collapse: the lanes' second coefficients are summed (collapsed
	// Taylor mode).
	collapse bool
	// stacked: the directions travel stacked (ssaad.Options.Stacked): the
	// function is generated for one direction (lanes 0, or 1 when
	// collapsed), its coefficient parameters of the first order (of every
	// order but a collapsed sum) hold tensors of directions, and the
	// collapsed sums over the directions are tensorops.SumLanes.
	stacked bool
	// scalarLanes: with stacked, the coefficients of float results are
	// tensors of directions (ssaad.Options.ScalarLanes).
	scalarLanes bool
	// stackedIO: a directive's lanes=stacked (ssaad.Options.StackedIO).
	stackedIO bool
	// tangent selects forward mode (//gad:jvp):
	// order 1, the coefficient is the tangent dx, callees are asked for
	// their JVPs, and the doc comment speaks of tangents.
	tangent bool
}

// tangentMode is forward mode's configuration.
var tangentMode = config{order: 1, tangent: true}

// name names coefficient k of the value named base: its tangent dx in
// forward mode, else coefName's x1, x2, ….
func (c config) name(base string, k int) string {
	if c.lanes > 0 && !c.collapse {
		// Slot k: lane l's coefficient j; x1 … xL (dx1 … dxL) at order 1,
		// else xj_l.
		j, l := (k-1)/c.lanes+1, (k-1)%c.lanes+1
		if c.tangent {
			return coefName(ssaad.TangentName(base), l)
		}
		if c.order == 1 {
			return coefName(base, l)
		}
		return coefName(coefName(base, j), l)
	}
	if c.tangent {
		return ssaad.TangentName(base)
	}
	return coefName(base, k)
}

// mode returns the name of the mode, for messages.
func (c config) mode() string {
	if c.tangent {
		return "forward mode"
	}
	return "Taylor mode"
}

// MaxLanes bounds collapsed=L (ssaad.MaxLanes).
const MaxLanes = ssaad.MaxLanes

// slots returns the number of coefficient slots of a value: K; in
// collapsed mode the L first coefficients and the summed second one;
// with L lanes otherwise, K per lane (coefficient k of lane l in slot
// (k−1)·L + l, see laneJet).
func (c config) slots() int {
	if c.collapsed() {
		return c.lanes + 1
	}
	if c.lanes > 0 {
		return c.lanes * c.order
	}
	return c.order
}

// collapsed reports whether c is collapsed Taylor mode: L directions at
// order 2, their second coefficients summed.
func (c config) collapsed() bool { return c.collapse }

// lineInputs returns the number of input slots of a line seed.
func (c config) lineInputs() int {
	if c.lanes > 0 {
		return c.lanes
	}
	return 1
}

// parseOptions reads order=, seed=, lanes= and collapsed= of a request.
func parseOptions(opts ssaad.Options) (config, error) {
	if opts.Order == 0 {
		return config{}, fmt.Errorf("//gad:taylor needs order=K, the degree of the Taylor polynomials (1 ≤ K ≤ %d)", MaxOrder)
	}
	if opts.Stacked && !opts.Collapsed && !opts.ScalarLanes && !opts.StackedIO {
		return config{}, fmt.Errorf("stacked directions in Taylor mode need their float coefficients as tensors")
	}
	// //gad:taylor lanes=stacked: the float coefficients are tensors [L]
	// too, and the function marks and unmarks the directions itself.
	return config{order: opts.Order, line: opts.Line, lanes: opts.Lanes, collapse: opts.Collapsed, stacked: opts.Stacked,
		scalarLanes: opts.ScalarLanes || opts.StackedIO, stackedIO: opts.StackedIO}, nil
}

// names holds the parameter and result names of a generated function.
type names struct {
	params []string   // primal parameter names, receiver first
	coefs  [][]string // coefs[i][k-1]: coefficient k of parameter i (nil when not varied)
	// results are the primal result names (all "" when unnamed); rcoefs
	// the names of their coefficients (nil when none or unnamed).
	results []string
	rcoefs  [][]string
}

// layout places the results: the primal results, then the K
// coefficients of each result whose type holds floats, in order; a
// trailing error result stays last.
type layout struct {
	primal []int // position of primal result i
	coef   []int // position of coefficient 1 of result i (k at coef+k-1), or -1
	n      int
}

var errorType = types.Universe.Lookup("error").Type()

func resultLayout(rs []types.Type, order int) layout {
	l := layout{primal: make([]int, len(rs)), coef: make([]int, len(rs))}
	errLast := len(rs) > 0 && types.Identical(rs[len(rs)-1], errorType)
	k := 0
	for i := range rs {
		if errLast && i == len(rs)-1 {
			continue
		}
		l.primal[i] = k
		k++
	}
	for i, r := range rs {
		l.coef[i] = -1
		if ssaad.HasFloat(r) {
			l.coef[i] = k
			k += order
		}
	}
	if errLast {
		l.primal[len(rs)-1] = k
		k++
	}
	l.n = k
	return l
}

func tupleTypes(t *types.Tuple) []types.Type {
	var out []types.Type
	for v := range t.Variables() {
		out = append(out, v.Type())
	}
	return out
}

// inputs returns how many coefficients a varied parameter takes.
func (c config) inputs() int {
	if c.line {
		return c.lineInputs()
	}
	return c.slots()
}

func computeNames(fn *types.Func, active []bool, c config) *names {
	sig := fn.Type().(*types.Signature)
	nm := &names{params: ssaad.ParamNames(fn)}
	used := map[string]bool{}
	for _, n := range nm.params {
		used[n] = true
	}
	named := false
	for r := range sig.Results().Variables() {
		named = named || r.Name() != ""
	}
	for i := 0; i < sig.Results().Len(); i++ {
		n := ""
		if named {
			n = sig.Results().At(i).Name()
			if n == "" || n == "_" {
				n = fmt.Sprintf("r%d", i)
			}
			for used[n] {
				n += "_"
			}
			used[n] = true
		}
		nm.results = append(nm.results, n)
	}
	for i := range nm.params {
		var cs []string
		if i < len(active) && active[i] {
			for k := 1; k <= c.inputs(); k++ {
				cs = append(cs, ssaad.Fresh(used, c.name(nm.params[i], k)))
			}
		}
		nm.coefs = append(nm.coefs, cs)
	}
	for i, r := range nm.results {
		var cs []string
		if named && ssaad.HasFloat(sig.Results().At(i).Type()) {
			for k := 1; k <= c.slots(); k++ {
				cs = append(cs, ssaad.Fresh(used, c.name(r, k)))
			}
		}
		nm.rcoefs = append(nm.rcoefs, cs)
	}
	return nm
}

// coefName names coefficient k of the value named base: x1, x2, …; a
// name ending in a digit gets an underscore (x1_1).
func coefName(base string, k int) string {
	if base == "" {
		return ""
	}
	if c := base[len(base)-1]; '0' <= c && c <= '9' {
		base += "_"
	}
	return base + strconv.Itoa(k)
}

// signature returns the signature of the function that req asks for.
func signature(req *ssaad.Request, c config) (*types.Signature, error) {
	fn, active := req.Target, req.Active
	sig := fn.Type().(*types.Signature)
	sb, err := ssaad.NewSigBuilder(fn, active, req.Method)
	if err != nil {
		return nil, err
	}
	nm := computeNames(fn, active, c)
	for i, p := range ssaad.Params(fn) {
		sb.Primal(i, nm.params[i], p.Type())
		for _, cn := range nm.coefs[i] {
			sb.Add(cn, p.Type())
		}
	}
	lay := resultLayout(tupleTypes(sig.Results()), c.slots())
	sb.Results = make([]*types.Var, lay.n)
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		sb.Results[lay.primal[i]] = sb.Var(nm.results[i], rt)
		if p := lay.coef[i]; p >= 0 {
			for k := 1; k <= c.slots(); k++ {
				n := ""
				if nm.rcoefs[i] != nil {
					n = nm.rcoefs[i][k-1]
				}
				sb.Results[p+k-1] = sb.Var(n, c.coefType(req.Target, rt))
			}
		}
	}
	return sb.Build(sig.Variadic() && !active[len(active)-1]), nil
}

// docComment writes the doc comment of a generated Taylor-mode function.
// writes tells which parameters the function stores through (nil:
// unknown).
func docComment(name string, fn *types.Func, nm *names, active, writes []bool, c config) string {
	var sb strings.Builder
	target := ssaad.FuncName(fn)
	switch {
	case c.collapsed():
		return collapsedDoc(name, target, nm, active, c)
	case c.lanes > 0:
		return vectorDoc(name, target, nm, active, c)
	case c.tangent:
		return tangentDoc(name, fn, nm, active, writes)
	}
	// One paragraph, which the emitter wraps.
	fmt.Fprintf(&sb, "%s propagates Taylor polynomials of degree %d through %s (Taylor mode): ", name, c.order, target)
	if c.line {
		sb.WriteString("when each varied input p moves on the line p + p1·t, it returns the results of ")
	} else {
		fmt.Fprintf(&sb, "when each varied input p moves on the curve p + p1·t + … + p%d·t^%d, it returns the results of ", c.order, c.order)
	}
	fmt.Fprintf(&sb, "%s and, after them, the coefficients y1 … y%d of each float result y(t) = y + y1·t + … + y%d·t^%d + O(t^%d), ", target, c.order, c.order, c.order, c.order+1)
	sb.WriteString("where yk is the k-th derivative in t at t = 0 divided by k!.")
	if c.stacked {
		sb.WriteString(" The directions are stacked: each input coefficient is a tensor [L, …] of L curves' " +
			"coefficients (of the input's shape after the first axis), and each coefficient of a float result a tensor [L] " +
			"of the L curves' coefficients, computed at once.")
	}
	sb.WriteString("\n\n")
	var varied, fixed []string
	for i, p := range nm.params {
		if !active[i] {
			fixed = append(fixed, p)
			continue
		}
		varied = append(varied, fmt.Sprintf("%s (coefficients %s)", p, strings.Join(nm.coefs[i], ", ")))
	}
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.\n", strings.Join(varied, ", "))
	}
	if c.line && c.order > 1 {
		fmt.Fprintf(&sb, "Seed: a line; the input coefficients of degree 2 to %d are zero.\n", c.order)
	}
	if len(fixed) > 0 {
		fmt.Fprintf(&sb, "Fixed inputs (zero coefficients): %s.\n", strings.Join(fixed, ", "))
	}
	sig := fn.Type().(*types.Signature)
	lay := resultLayout(tupleTypes(sig.Results()), c.order)
	if lay.n > 0 {
		out := make([]string, lay.n)
		for i := 0; i < sig.Results().Len(); i++ {
			r := nm.results[i]
			what := "the value of " + target
			if r != "" {
				what = r
			} else if sig.Results().Len() > 1 {
				what = fmt.Sprintf("result %d of %s", i+1, target)
			}
			out[lay.primal[i]] = what
			if p := lay.coef[i]; p >= 0 {
				cs := "its coefficients 1 to " + strconv.Itoa(c.order)
				if nm.rcoefs[i] != nil {
					cs = strings.Join(nm.rcoefs[i], ", ") + ", the coefficients of " + r
				}
				out[p] = cs
				for k := 1; k < c.order; k++ {
					out[p+k] = ""
				}
			}
		}
		var parts []string
		for _, o := range out {
			if o != "" {
				parts = append(parts, o)
			}
		}
		fmt.Fprintf(&sb, "Results, in order: %s.\n", strings.Join(parts, "; "))
	}
	shadows := false
	for i, p := range ssaad.Params(fn) {
		if active[i] && (ssaad.IsPointerLike(p.Type()) || isAggregate(p.Type())) {
			shadows = true
		}
	}
	if shadows {
		sb.WriteString("Shadows: a varied slice, pointer, struct or array has one coefficient shadow of\n")
		sb.WriteString("its shape per degree; what the function writes through it, the coefficients are\n")
		sb.WriteString("written (overwritten) into the shadows.\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func isAggregate(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// collapsedDoc is the doc comment of a collapsed Taylor-mode function.
func collapsedDoc(name, target string, nm *names, active []bool, c config) string {
	var sb strings.Builder
	L := c.lanes
	fmt.Fprintf(&sb, "%s propagates %d second-order jets of %s at once (collapsed Taylor mode):\n", name, L, target)
	fmt.Fprintf(&sb, "along the directions u_1 … u_%d, given for each varied input p as p1 … p%d", L, L)
	if !c.line {
		fmt.Fprintf(&sb, ", with the sum of their\nsecond coefficients in p%d", L+1)
	}
	fmt.Fprintf(&sb, ",\nit returns the results of %s and, for each float result y, its first coefficients\n", target)
	sb.WriteString("along each direction (its directional derivatives), then the sum of its second\n")
	sb.WriteString("coefficients, Σ_l ½ u_lᵀ∇²y u_l.\n\n")
	var varied []string
	for i, p := range nm.params {
		if active[i] {
			varied = append(varied, fmt.Sprintf("%s (%s)", p, strings.Join(nm.coefs[i], ", ")))
		}
	}
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.", strings.Join(varied, ", "))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// vectorDoc is the doc comment of a function propagating L directions
// at once: a JVP along several directions (vector forward mode) or L
// Taylor jets sharing the primal (lanes=L).
func vectorDoc(name, target string, nm *names, active []bool, c config) string {
	var sb strings.Builder
	L, K := c.lanes, c.order
	if c.tangent {
		fmt.Fprintf(&sb, "%s computes %s and its derivatives along %d directions at once (vector forward mode): ", name, target, L)
		fmt.Fprintf(&sb, "each varied input takes %d tangents, one per direction, and the results are %s's, then the %d tangents of each float result in order.\n\n", L, target, L)
	} else {
		fmt.Fprintf(&sb, "%s propagates %d Taylor polynomials of degree %d through %s at once, one per direction (Taylor mode, %d lanes): ", name, L, K, target, L)
		if c.line {
			fmt.Fprintf(&sb, "along the lines p + p1_l·t given for each varied input p as its first coefficients p1_1 … p1_%d, ", L)
		} else {
			fmt.Fprintf(&sb, "along the curves given for each varied input p as its coefficients pk_l (degree k, lane l), ")
		}
		fmt.Fprintf(&sb, "it returns the results of %s and, for each float result y, its coefficients yk_l of degree k = 1 … %d along lane l = 1 … %d, degree by degree, ", target, K, L)
		fmt.Fprintf(&sb, "where yk_l is the k-th derivative in t at t = 0 divided by k! along lane l.\n\n")
	}
	var varied, fixed []string
	for i, p := range nm.params {
		if active[i] {
			what := "tangents"
			if !c.tangent {
				what = "coefficients"
			}
			varied = append(varied, fmt.Sprintf("%s (%s %s)", p, what, strings.Join(nm.coefs[i], ", ")))
		} else {
			fixed = append(fixed, p)
		}
	}
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.\n", strings.Join(varied, ", "))
	}
	if len(fixed) > 0 {
		what := "tangents"
		if !c.tangent {
			what = "coefficients"
		}
		fmt.Fprintf(&sb, "Fixed inputs (zero %s): %s.\n", what, strings.Join(fixed, ", "))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// tangentDoc is the doc comment of a generated JVP (forward mode): what
// it computes, the varied inputs, the results, and the shadow convention.
func tangentDoc(name string, fn *types.Func, nm *names, active, writes []bool) string {
	var sb strings.Builder
	target := ssaad.FuncName(fn)
	fmt.Fprintf(&sb, "%s computes %s and its derivative along the tangents (forward mode).\n\n", name, target)
	var varied, fixed, shadows, written []string
	ps := ssaad.Params(fn)
	for i, p := range nm.params {
		if !active[i] {
			fixed = append(fixed, p)
			continue
		}
		d := nm.coefs[i][0]
		varied = append(varied, fmt.Sprintf("%s (tangent %s)", p, d))
		t := ps[i].Type()
		if ssaad.IsPointerLike(t) || isAggregate(t) {
			shadows = append(shadows, d)
			if ssaad.IsPointerLike(t) && (writes == nil || i < len(writes) && writes[i]) {
				written = append(written, fmt.Sprintf("%s into %s", p, d))
			}
		}
	}
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.\n", strings.Join(varied, ", "))
	}
	if len(fixed) > 0 {
		fmt.Fprintf(&sb, "Fixed inputs (zero tangent): %s.\n", strings.Join(fixed, ", "))
	}
	sig := fn.Type().(*types.Signature)
	lay := resultLayout(tupleTypes(sig.Results()), 1)
	if lay.n > 0 {
		out := make([]string, lay.n)
		for i := 0; i < sig.Results().Len(); i++ {
			r := nm.results[i]
			if r == "" {
				out[lay.primal[i]], r = "the value of "+target, "its tangent"
				if sig.Results().Len() > 1 {
					out[lay.primal[i]], r = fmt.Sprintf("result %d of %s", i+1, target), fmt.Sprintf("the tangent of result %d", i+1)
				}
				if k := lay.coef[i]; k >= 0 {
					out[k] = r
				}
				continue
			}
			out[lay.primal[i]] = r
			if k := lay.coef[i]; k >= 0 {
				out[k] = nm.rcoefs[i][0] + ", the tangent of " + r
			}
		}
		fmt.Fprintf(&sb, "Results, in order: %s.\n", strings.Join(out, "; "))
	}
	if len(shadows) > 0 {
		fmt.Fprintf(&sb, "Shadows: %s %s %s primal's shape, each element or field the tangent of the primal's.",
			strings.Join(shadows, ", "), plural(len(shadows), "has", "have"), plural(len(shadows), "its", "their"))
		if len(written) > 0 {
			fmt.Fprintf(&sb, " The tangents of the values %s writes are written (overwritten) into the shadows: %s.", target, strings.Join(written, ", "))
		}
		sb.WriteString("\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ResultLanes returns, for the function that m generates for req with
// stacked directions (ssaad.Options.Stacked), which of its results hold
// directions (ir.Func.ResultLanes, known before the function is built);
// nil without stacked directions.
func (m Mode) ResultLanes(req *ssaad.Request) []bool {
	c, err := m.config(req)
	if err != nil {
		return nil
	}
	rs := tupleTypes(req.Target.Type().(*types.Signature).Results())
	return c.resultLanes(resultLayout(rs, c.slots()), len(rs))
}

// ParamLanes is ResultLanes for the parameters (ir.Func.Lanes).
func (m Mode) ParamLanes(req *ssaad.Request) []bool {
	c, err := m.config(req)
	if err != nil {
		return nil
	}
	return c.paramLanes(computeNames(req.Target, req.Active, c), req.Active)
}

// laneCoef reports whether coefficient slot k holds stacked directions:
// every one but a collapsed sum.
func (c config) laneCoef(k int) bool { return !(c.collapsed() && k == c.lanes) }

// paramLanes returns which parameters of the generated function hold
// stacked directions (each primal parameter, then its coefficients if it
// is varied); nil without stacked directions.
func (c config) paramLanes(nm *names, active []bool) []bool {
	if !c.stacked {
		return nil
	}
	var out []bool
	for i := range nm.params {
		out = append(out, false)
		if i < len(active) && active[i] {
			for k := range nm.coefs[i] {
				out = append(out, c.laneCoef(k))
			}
		}
	}
	return out
}

// resultLanes returns which results of the generated function, laid out
// by lay for n primal results, hold stacked directions; nil without
// stacked directions.
func (c config) resultLanes(lay layout, n int) []bool {
	if !c.stacked {
		return nil
	}
	out := make([]bool, lay.n)
	for i := range n {
		if p := lay.coef[i]; p >= 0 {
			for k := range c.slots() {
				out[p+k] = c.laneCoef(k)
			}
		}
	}
	return out
}

// coefType returns the type of a coefficient of a result of type rt of
// fn: rt, or with scalarLanes for a float rt the runtime's tensor type
// (found among fn's parameters), which holds one scalar per direction.
func (c config) coefType(fn *types.Func, rt types.Type) types.Type {
	if !c.scalarLanes || ir.IsTensor(rt) || !isFloat(rt) {
		return rt
	}
	if t := tensorTypeIn(fn); t != nil {
		return t
	}
	return rt
}

// tensorTypeIn returns the runtime's *Tensor type as fn's parameters hold
// it (directly or through pointers, slices, arrays and struct fields),
// nil when they hold none.
func tensorTypeIn(fn *types.Func) types.Type {
	seen := map[types.Type]bool{}
	var find func(t types.Type) types.Type
	find = func(t types.Type) types.Type {
		if seen[t] {
			return nil
		}
		seen[t] = true
		if ir.IsTensor(t) {
			return t
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			return find(u.Elem())
		case *types.Slice:
			return find(u.Elem())
		case *types.Array:
			return find(u.Elem())
		case *types.Struct:
			for f := range u.Fields() {
				if r := find(f.Type()); r != nil {
					return r
				}
			}
		}
		return nil
	}
	for _, p := range ssaad.Params(fn) {
		if r := find(p.Type()); r != nil {
			return r
		}
	}
	return nil
}
