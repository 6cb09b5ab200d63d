package harness

// This file defines the checks of the second-order helpers (//gad:hvp,
// //gad:hessian, //gad:hessdiag, //gad:laplacian) of a function F of one
// float64 result, with respect to its []float64 parameter x = Case.Wrt,
// the others fixed. The reference is f2(u) = ½uᵀ∇²F(x)u, the second
// Taylor coefficient of F(x + t·u): from F's line-seeded jet (Case.Line)
// or its jet with x2 = x3 = 0 (Case.Taylor), whichever was checked
// against the complex step at this case without failure, or else from
// extrapolated central differences of the complex-step derivative
// t ↦ ∇F(x + t·u)·u, as Taylor mode's coefficients are checked. At each
// point, with v and u drawn in [−1, 1)ⁿ:
//
//   - every helper returns F(x) and leaves the memory that F writes
//     through its parameters (x and the fixed ones) as F does;
//   - hvp: vᵀ(Hv) = 2·f2(v), uᵀ(Hv) = f2(u+v) − f2(u) − f2(v);
//   - hessdiag: d[i] = 2·f2(eᵢ); laplacian: lap = Σᵢ 2·f2(eᵢ);
//   - hessian: H symmetric, vᵀHv and uᵀHv as for the HVP, and, for the
//     helpers checked before it at this case, H·v = HVP(v), its
//     diagonal = d, its trace = lap.

import (
	"fmt"
	"math"
	"reflect"
	"slices"
)

// isSecond reports whether mode is a second-order helper's.
func isSecond(mode string) bool {
	return mode == "hvp" || mode == "hessian" || mode == "hessdiag" || mode == "laplacian"
}

// secondSignature checks a helper's type: after x, the HVP takes v and
// hv, the Hessian h, the diagonal d, all []float64; the Laplacian
// returns (f, lap).
func (s *shape) secondSignature(mode string, t reflect.Type) error {
	var in, out []reflect.Type
	extra := map[string]int{"hvp": 2, "hessian": 1, "hessdiag": 1, "laplacian": 0}[mode]
	for i, p := range s.params {
		in = append(in, p)
		if i == s.wrt {
			for range extra {
				in = append(in, p)
			}
		}
	}
	out = append(out, s.results...)
	if mode == "laplacian" {
		out = append(out, reflect.TypeFor[float64]())
	}
	if len(s.results) != 1 || s.results[0].Kind() != reflect.Float64 {
		return fmt.Errorf("%s of a function without exactly one float64 result", mode)
	}
	if got, want := typesOf(t), funcType(in, out); got != want {
		return fmt.Errorf("got %s, want %s", got, want)
	}
	return nil
}

// callSecond calls a helper at the point with the slices extra after x
// (NaN-filled ones of length n for nil entries of vs, its outputs) and
// returns its results and those slices.
func (c *ctxt) callSecond(fn any, vs [][]float64, lens []int) (out, bufs []reflect.Value, y []float64) {
	s := c.s
	f := reflect.ValueOf(fn)
	args, primals, _ := s.args(f, toComplex(c.pt.x), toComplex(c.pt.inactive), func(_ int, next func() reflect.Type) []reflect.Value {
		for k := range lens {
			t := next()
			sl := reflect.MakeSlice(t, lens[k], lens[k])
			for i := range lens[k] {
				a := math.NaN()
				if vs[k] != nil {
					a = vs[k][i]
				}
				sl.Index(i).SetFloat(a)
			}
			bufs = append(bufs, sl)
		}
		return bufs
	})
	out = f.Call(args)
	y = realParts(s.outputs(out[:1], primals))
	return out, bufs, y
}

// floats returns the elements of a []float64 value.
func floats(v reflect.Value) []float64 {
	x := make([]float64, v.Len())
	for i := range x {
		x[i] = v.Index(i).Float()
	}
	return x
}

// secondValue checks a helper's value and memory against F's.
func (c *ctxt) secondValue(y []float64) {
	c.vecs("value", y[:1], c.y0[:1], relValue)
	if len(y) > 1 {
		c.vecs("memory", y[1:], c.y0[1:], relValue)
	}
}

// f2Ref computes the reference f2(u) = ½uᵀ∇²F(x)u at the point.
type f2Ref struct {
	c    *ctxt
	full *shape // F's shape with every parameter varied, for the jets
	jet  any
	line bool
}

func (c *ctxt) f2Ref() *f2Ref {
	r := &f2Ref{c: c}
	cs := c.s.c
	switch {
	case cs.Line != nil && cs.passed["line"]:
		r.jet, r.line = cs.Line, true
	case cs.Taylor != nil && cs.passed["taylor"]:
		r.jet = cs.Taylor
	}
	if r.jet != nil {
		full, err := newShape(cs, -1)
		if err != nil {
			failf("harness: %v", err)
		}
		r.full = full
	}
	return r
}

// kind names the reference in messages.
func (r *f2Ref) kind() string {
	switch {
	case r.jet == nil:
		return "differences of the complex step"
	case r.line:
		return "the line jet"
	}
	return "the jet"
}

// f2 returns f2(u) and the absolute tolerance of its value (0 for a
// jet, exact but for rounding); ok is false where the differences cannot
// give it (a kink, or no convergence).
func (r *f2Ref) f2(u []float64) (f2, tol float64, ok bool) {
	if r.jet == nil {
		return r.c.f2Differences(u)
	}
	// The point and u in the layout of the full shape: x's slots where
	// it is, the fixed parameters' floats, varied there, with u's zeros.
	s, full := r.c.s, r.full
	x, dir, inactive := r.c.pt.x, u, r.c.pt.inactive
	var xf, uf, inf []float64
	for i, p := range s.params {
		k := count(p, s.c.Len)
		var src, d []float64
		if i == s.wrt {
			src, d, x, dir = x[:k], dir[:k], x[k:], dir[k:]
		} else {
			src, d, inactive = inactive[:k], make([]float64, k), inactive[k:]
		}
		if full.varied[i] {
			xf, uf = append(xf, src...), append(uf, d...)
		} else {
			inf = append(inf, src...)
		}
	}
	fc := &ctxt{s: full, pt: point{inactive: inf}, cfg: r.c.cfg}
	xs := [][]float64{xf, uf}
	if !r.line {
		for len(xs) < full.c.Order+1 {
			xs = append(xs, make([]float64, len(xf)))
		}
	}
	ys := fc.callTaylor(r.jet, r.line, xs...)
	return ys[2][0], 0, true
}

// f2Differences returns f2(u) = g″(0)/2 for g(t) = F(x + t·u) by
// extrapolated central differences of the complex-step g′ (as Taylor
// mode's second coefficient is checked), and its tolerance.
func (c *ctxt) f2Differences(u []float64) (f2, tol float64, ok bool) {
	g0, tr0 := c.oracle(c.pt.x, u)
	gp := map[float64]float64{0: g0[0]}
	m := derivFloor * math.Abs(c.y0[0])
	xt := make([]float64, len(c.pt.x))
	for k := 0; k <= levels; k++ {
		for _, sign := range []float64{-1, 1} {
			t := sign * eps / float64(int(1)<<k)
			for i := range xt {
				xt[i] = c.pt.x[i] + t*u[i]
			}
			g, tr := c.oracle(xt, u)
			if tr != tr0 || c.cfg.Largest() > maxIntermediate {
				return 0, 0, false // a kink, or large intermediates near x
			}
			gp[t] = g[0]
			m = max(m, math.Abs(g[0]))
		}
	}
	h := func(k int) float64 { return eps / float64(int(1)<<k) }
	d := func(k int) float64 { return (gp[h(k)] - gp[-h(k)]) / (2 * h(k)) }
	f2, err, ok := converged(d, 2, m)
	if !ok {
		return 0, 0, false
	}
	return f2, relSecond*(m+math.Abs(f2)) + 4*err, true
}

// near checks a second derivative against its reference within relSecond
// of their size and of scale, the size of the terms they come from (at
// least derivFloor·|F|), plus tol, the reference's own error.
func (c *ctxt) near(kind string, got, want, scale, tol float64, format string, args ...any) {
	c.checks++
	scale = max(scale, derivFloor*math.Abs(c.y0[0]))
	if !(math.Abs(got-want) <= relSecond*(math.Abs(got)+math.Abs(want)+scale)+tol) {
		failf("%s: got %.17g, want %.17g (scale %.3g, tol %.3g): %s at x = %v, v = %v",
			kind, got, want, scale, tol, fmt.Sprintf(format, args...), c.pt.x, c.pt.v)
	}
}

// second checks the helper of mode, fn, at the point.
func (c *ctxt) second(mode string, fn any) {
	n := c.s.c.Len
	x, v, u := c.pt.x, c.pt.v, c.pt.x2
	ref := c.f2Ref()
	// f2s returns f2 at each direction, with the sum of their
	// tolerances and magnitudes; ok is false if one is not known.
	f2s := func(us ...[]float64) (fs []float64, tol, size float64, ok bool) {
		for _, u := range us {
			f, t, ok := ref.f2(u)
			if !ok {
				return nil, 0, 0, false
			}
			fs, tol, size = append(fs, f), tol+t, size+math.Abs(f)
		}
		return fs, tol, size, true
	}
	unit := func(i int) []float64 { e := make([]float64, n); e[i] = 1; return e }
	// quadratic checks vᵀ(Hv) and uᵀ(Hv) given hv = H·v, and terms, the
	// sizes of the terms of each component of hv.
	quadratic := func(kind string, hv, terms []float64) {
		fs, tol, size, ok := f2s(v, u, add(u, v))
		if !ok {
			return
		}
		vhv, vscale := dot(v, hv)
		c.near(kind+"-quad", vhv, 2*fs[0], vscale+dotAbs(v, terms)+2*size, 2*tol, "vᵀ(Hv) against 2·f2(v) by %s", ref.kind())
		uhv, uscale := dot(u, hv)
		c.near(kind+"-polar", uhv, fs[2]-fs[1]-fs[0], uscale+dotAbs(u, terms)+size, tol,
			"uᵀ(Hv) against f2(u+v) − f2(u) − f2(v) by %s, u = %v", ref.kind(), u)
	}
	// diagonal returns 2·f2(eᵢ) for each i, their tolerances, and ok.
	diagonal := func() (d, tol []float64, ok bool) {
		for i := range n {
			f, t, ok := ref.f2(unit(i))
			if !ok {
				return nil, nil, false
			}
			d, tol = append(d, 2*f), append(tol, 2*t)
		}
		return d, tol, true
	}
	switch mode {
	case "hvp":
		_, out, y := c.callSecond(fn, [][]float64{v, nil}, []int{n, n})
		c.secondValue(y)
		hv := floats(out[1])
		quadratic("hvp", hv, make([]float64, n))
	case "hessdiag":
		_, out, y := c.callSecond(fn, [][]float64{nil}, []int{n})
		c.secondValue(y)
		got := floats(out[0])
		want, tol, ok := diagonal()
		if !ok {
			return
		}
		for i := range n {
			c.near("hessdiag", got[i], want[i], 0, tol[i], "d[%d] against 2·f2(e%d) by %s", i, i, ref.kind())
		}
	case "laplacian":
		res, _, y := c.callSecond(fn, nil, nil)
		c.secondValue(y)
		lap := res[1].Float()
		d, tol, ok := diagonal()
		if !ok {
			return
		}
		var want, scale, t float64
		for i := range n {
			want, scale, t = want+d[i], scale+math.Abs(d[i]), t+tol[i]
		}
		c.near("laplacian", lap, want, scale, t, "lap against Σ 2·f2(eᵢ) by %s", ref.kind())
	case "hessian":
		_, out, y := c.callSecond(fn, [][]float64{nil}, []int{n * n})
		c.secondValue(y)
		h := floats(out[0])
		at := func(i, j int) float64 { return h[i*n+j] }
		c.checks++
		for i := range n {
			for j := range i {
				if !agree(at(i, j), at(j, i), 0, relValue) {
					failf("hessian-sym: h[%d,%d] = %.17g, h[%d,%d] = %.17g at x = %v", i, j, at(i, j), j, i, at(j, i), x)
				}
			}
		}
		// H·v, and the sizes of its terms.
		hv, terms := make([]float64, n), make([]float64, n)
		for i := range n {
			for j := range n {
				hv[i] += at(i, j) * v[j]
				terms[i] += math.Abs(at(i, j) * v[j])
			}
		}
		quadratic("hessian", hv, terms)
		// The helpers checked before, against the Hessian.
		cs := c.s.c
		if cs.HVP != nil && cs.passed["hvp"] {
			_, out, _ := c.callSecond(cs.HVP, [][]float64{v, nil}, []int{n, n})
			got := floats(out[1])
			for i := range n {
				c.near("hessian-hvp", hv[i], got[i], terms[i], 0, "(H·v)[%d] against the HVP", i)
			}
		}
		if cs.HessDiag != nil && cs.passed["hessdiag"] {
			_, out, _ := c.callSecond(cs.HessDiag, [][]float64{nil}, []int{n})
			got := floats(out[0])
			for i := range n {
				c.near("hessian-diag", at(i, i), got[i], 0, 0, "h[%d,%d] against the diagonal's d[%d]", i, i, i)
			}
		}
		if cs.Laplacian != nil && cs.passed["laplacian"] {
			res, _, _ := c.callSecond(cs.Laplacian, nil, nil)
			var tr, scale float64
			for i := range n {
				tr, scale = tr+at(i, i), scale+math.Abs(at(i, i))
			}
			c.near("hessian-trace", tr, res[1].Float(), scale, 0, "the trace against the Laplacian")
		}
	}
}

func add(a, b []float64) []float64 {
	c := slices.Clone(a)
	for i := range c {
		c[i] += b[i]
	}
	return c
}

// dotAbs returns Σ|aᵢ|·bᵢ.
func dotAbs(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += math.Abs(a[i]) * b[i]
	}
	return s
}
