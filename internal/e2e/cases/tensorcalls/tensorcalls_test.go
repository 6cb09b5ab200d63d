package tensorcalls

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// fn is a function of the case on a list of tensors, with its derivatives
// (nil where not generated).
type fn struct {
	name   string
	shapes [][]int
	f      func(xs []*T) float64
	jvp    func(xs, dxs []*T) (float64, float64)
	grad   func(xs []*T) (float64, []*T)
	taylor func(xs []*T, cs [][]*T) []float64 // cs[k-1]: the coefficients k of the inputs; the result's coefficients 0…K
	order  int
	hvp    func(x, v *T) (float64, *T)
	hess   func(x *T) (float64, *T)
	diag   func(x *T) (float64, *T)
	lap    func(x *T) (float64, float64)
}

var fns = []fn{
	{name: "Spread", shapes: [][]int{{2, 3}}, f: func(xs []*T) float64 { return Spread(xs[0]) },
		jvp:    func(xs, ds []*T) (float64, float64) { return SpreadJVP(xs[0], ds[0]) },
		grad:   func(xs []*T) (float64, []*T) { f, g := SpreadGrad(xs[0]); return f, []*T{g} },
		taylor: taylor3(SpreadTaylor), order: 3, hvp: SpreadHVP},
	{name: "Listed", shapes: [][]int{{2, 3}}, f: func(xs []*T) float64 { return Listed(xs[0]) },
		jvp:    func(xs, ds []*T) (float64, float64) { return ListedJVP(xs[0], ds[0]) },
		grad:   func(xs []*T) (float64, []*T) { f, g := ListedGrad(xs[0]); return f, []*T{g} },
		taylor: taylor3(ListedTaylor), order: 3},
	{name: "Heads", shapes: [][]int{{2, 6}}, f: func(xs []*T) float64 { return Heads(xs[0]) },
		jvp:    func(xs, ds []*T) (float64, float64) { return HeadsJVP(xs[0], ds[0]) },
		grad:   func(xs []*T) (float64, []*T) { f, g := HeadsGrad(xs[0]); return f, []*T{g} },
		taylor: taylor3(HeadsTaylor), order: 3, hvp: HeadsHVP, hess: HeadsHessian, diag: HeadsHessDiag, lap: HeadsLaplacian},
	{name: "Rejoin", shapes: [][]int{{3, 2}, {1, 4}}, f: func(xs []*T) float64 { return Rejoin(xs[0], xs[1]) },
		jvp: func(xs, ds []*T) (float64, float64) { return RejoinJVP(xs[0], ds[0], xs[1], ds[1]) },
		grad: func(xs []*T) (float64, []*T) {
			f, gx, gw := RejoinGrad(xs[0], xs[1])
			return f, []*T{gx, gw}
		},
		taylor: func(xs []*T, cs [][]*T) []float64 {
			a, b, c := RejoinTaylor(xs[0], cs[0][0], cs[1][0], xs[1], cs[0][1], cs[1][1])
			return []float64{a, b, c}
		}, order: 2},
	{name: "Sums", shapes: [][]int{{2, 3}, {2, 3}}, f: func(xs []*T) float64 { return Sums(xs[0], xs[1]) },
		jvp: func(xs, ds []*T) (float64, float64) { return SumsJVP(xs[0], ds[0], xs[1], ds[1]) },
		grad: func(xs []*T) (float64, []*T) {
			f, gx, gy := SumsGrad(xs[0], xs[1])
			return f, []*T{gx, gy}
		},
		taylor: func(xs []*T, cs [][]*T) []float64 {
			a, b, c := SumsTaylor(xs[0], cs[0][0], cs[1][0], xs[1], cs[0][1], cs[1][1])
			return []float64{a, b, c}
		}, order: 2},
	{name: "Accumulate", shapes: [][]int{{3, 2}}, f: func(xs []*T) float64 { return Accumulate(xs[0]) },
		jvp:    func(xs, ds []*T) (float64, float64) { return AccumulateJVP(xs[0], ds[0]) },
		grad:   func(xs []*T) (float64, []*T) { f, g := AccumulateGrad(xs[0]); return f, []*T{g} },
		taylor: taylor3(AccumulateTaylor), order: 3, hvp: AccumulateHVP},
	{name: "Reads", shapes: [][]int{{2, 3}}, f: func(xs []*T) float64 { return Reads(xs[0]) },
		jvp:    func(xs, ds []*T) (float64, float64) { return ReadsJVP(xs[0], ds[0]) },
		grad:   func(xs []*T) (float64, []*T) { f, g := ReadsGrad(xs[0]); return f, []*T{g} },
		taylor: taylor3(ReadsTaylor), order: 3, hvp: ReadsHVP},
	{name: "ConvLoss", shapes: [][]int{{2, 1, 3, 3}, {2}, {1, 1, 4, 4}},
		f: func(xs []*T) float64 { return ConvLoss(Conv{xs[0], expandB(xs[1])}, xs[2]) },
		jvp: func(xs, ds []*T) (float64, float64) {
			return ConvLossJVP(Conv{xs[0], expandB(xs[1])}, Conv{ds[0], expandB(ds[1])}, xs[2], ds[2])
		},
		grad: func(xs []*T) (float64, []*T) {
			f, gc, gx := ConvLossGrad(Conv{xs[0], expandB(xs[1])}, xs[2])
			return f, []*T{gc.K, squeezeB(gc.B), gx}
		},
		taylor: func(xs []*T, cs [][]*T) []float64 {
			c := func(k int) Conv { return Conv{cs[k][0], expandB(cs[k][1])} }
			a, b, d := ConvLossTaylor(Conv{xs[0], expandB(xs[1])}, c(0), c(1), xs[2], cs[0][2], cs[1][2])
			return []float64{a, b, d}
		}, order: 2},
	{name: "ConvPtrLoss", shapes: [][]int{{2, 1, 3, 3}, {2}, {1, 1, 4, 4}},
		f: func(xs []*T) float64 { return ConvPtrLoss(&Conv{xs[0], expandB(xs[1])}, xs[2]) },
		jvp: func(xs, ds []*T) (float64, float64) {
			return ConvPtrLossJVP(&Conv{xs[0], expandB(xs[1])}, &Conv{ds[0], expandB(ds[1])}, xs[2], ds[2])
		},
		grad: func(xs []*T) (float64, []*T) {
			var g Conv
			f, gx := ConvPtrLossGrad(&Conv{xs[0], expandB(xs[1])}, &g, xs[2])
			return f, []*T{g.K, squeezeB(g.B), gx}
		}},
	// Helpers that store tensors into their caller's memory or return
	// them (issue 25's item 2): inlined by the cost model, split or joint
	// under -reversal (the same numbers).
	{name: "Integrate", shapes: [][]int{{2, 3}, {3, 3}}, f: func(xs []*T) float64 { return Integrate(xs[0], xs[1]) },
		jvp: func(xs, ds []*T) (float64, float64) { return IntegrateJVP(xs[0], ds[0], xs[1], ds[1]) },
		grad: func(xs []*T) (float64, []*T) {
			f, gx, gw := IntegrateGrad(xs[0], xs[1])
			return f, []*T{gx, gw}
		}},
	{name: "Kept", shapes: [][]int{{2, 3}, {3, 4}, {4, 2}}, f: func(xs []*T) float64 { return Kept(xs[0], xs[1], xs[2]) },
		jvp: func(xs, ds []*T) (float64, float64) { return KeptJVP(xs[0], ds[0], xs[1], ds[1], xs[2], ds[2]) },
		grad: func(xs []*T) (float64, []*T) {
			f, a, b, c := KeptGrad(xs[0], xs[1], xs[2])
			return f, []*T{a, b, c}
		}},
	{name: "Recurrent", shapes: [][]int{{1, 3}, {3, 3}, {2, 3}, {1, 2}}, f: func(xs []*T) float64 { return Recurrent(xs[0], xs[1], xs[2], xs[3]) },
		jvp: func(xs, ds []*T) (float64, float64) {
			return RecurrentJVP(xs[0], ds[0], xs[1], ds[1], xs[2], ds[2], xs[3], ds[3])
		},
		grad: func(xs []*T) (float64, []*T) {
			f, a, b, c, d := RecurrentGrad(xs[0], xs[1], xs[2], xs[3])
			return f, []*T{a, b, c, d}
		}},
}

// expandB gives a bias of shape [o] the shape [o, 1, 1] that broadcasts
// over a convolution's result; nil stays nil (a zero tangent).
func expandB(b *T) *T {
	if b == nil {
		return nil
	}
	return tensorops.Reshape(b, -1, 1, 1)
}

func squeezeB(b *T) *T {
	if b == nil {
		return nil
	}
	return tensorops.Reshape(b, -1)
}

// taylor3 adapts a Taylor derivative of order 3 of one tensor.
func taylor3(tf func(x, x1, x2, x3 *T) (float64, float64, float64, float64)) func(xs []*T, cs [][]*T) []float64 {
	return func(xs []*T, cs [][]*T) []float64 {
		a, b, c, d := tf(xs[0], cs[0][0], cs[1][0], cs[2][0])
		return []float64{a, b, c, d}
	}
}

func random(rng *rand.Rand, shapes [][]int, dt tensorops.DType) []*T {
	out := make([]*T, len(shapes))
	for i, s := range shapes {
		out[i] = tensorops.RandU(rng, dt, -1, 1, s...)
	}
	return out
}

// axpy returns xs + h·vs, elementwise over the lists.
func axpy(xs, vs []*T, h float64) []*T {
	out := make([]*T, len(xs))
	for i := range xs {
		out[i] = tensorops.Add(xs[i], tensorops.Scale(vs[i], h))
	}
	return out
}

func dot(as, bs []*T) float64 {
	s := 0.0
	for i := range as {
		if as[i] != nil && bs[i] != nil {
			s += tensorops.Dot(as[i], bs[i])
		}
	}
	return s
}

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// TestDerivatives checks every function of the case in every mode
// generated for it, in float64 against central differences and against
// each other, and in float32 against float64.
func TestDerivatives(t *testing.T) {
	for _, c := range fns {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(c.name))))
			for range 3 {
				xs := random(rng, c.shapes, tensorops.Float64)
				vs := random(rng, c.shapes, tensorops.Float64)
				checkPoint(t, &c, xs, vs)
			}
		})
	}
}

func checkPoint(t *testing.T, c *fn, xs, vs []*T) {
	t.Helper()
	const h = 1e-5
	f0 := c.f(xs)
	fd := (c.f(axpy(xs, vs, h)) - c.f(axpy(xs, vs, -h))) / (2 * h)
	fj, dj := c.jvp(xs, vs)
	if fj != f0 {
		t.Errorf("JVP value %v, want %v", fj, f0)
	}
	if !near(dj, fd, 1e-7) {
		t.Errorf("JVP %v, want %v (central differences)", dj, fd)
	}
	// nil tangents are zero tangents.
	for i := range vs {
		ds := append([]*T(nil), vs...)
		ds[i] = nil
		zs := append([]*T(nil), vs...)
		zs[i] = tensorops.ZerosLike(vs[i])
		_, dn := c.jvp(xs, ds)
		_, dz := c.jvp(xs, zs)
		if !near(dn, dz, 1e-12) {
			t.Errorf("JVP with tangent %d nil: %v, want %v (a zero tangent)", i, dn, dz)
		}
	}
	fg, gs := c.grad(xs)
	if fg != f0 {
		t.Errorf("gradient value %v, want %v", fg, f0)
	}
	if got := dot(gs, vs); !near(got, dj, 1e-10) {
		t.Errorf("⟨gradient, v⟩ = %v, want the JVP %v", got, dj)
	}
	if c.taylor != nil {
		line := func(xs []*T) []float64 {
			cs := make([][]*T, c.order)
			cs[0] = vs
			for k := 1; k < c.order; k++ {
				cs[k] = make([]*T, len(vs)) // nil: zero coefficients, a line
			}
			return c.taylor(xs, cs)
		}
		cf := line(xs)
		if cf[0] != f0 || !near(cf[1], dj, 1e-12) {
			t.Errorf("Taylor coefficients 0, 1: %v, %v, want %v, %v", cf[0], cf[1], f0, dj)
		}
		for k := 2; k <= c.order; k++ {
			p, m := line(axpy(xs, vs, h)), line(axpy(xs, vs, -h))
			if want := (p[k-1] - m[k-1]) / (2 * h) / float64(k); !near(cf[k], want, 1e-6) {
				t.Errorf("Taylor coefficient %d: %v, want %v (differences of coefficient %d)", k, cf[k], want, k-1)
			}
		}
	}
	if c.hvp != nil {
		fh, hv := c.hvp(xs[0], vs[0])
		gp := func(s float64) *T { _, g := c.grad(axpy(xs, vs, s)); return g[0] }
		want := tensorops.Scale(tensorops.Sub(gp(h), gp(-h)), 1/(2*h))
		if fh != f0 {
			t.Errorf("HVP value %v, want %v", fh, f0)
		}
		if d := tensorops.MaxAbsDiff(hv, want); !(d <= 1e-6*math.Max(1, tensorops.MaxAll(tensorops.Abs(want)))) {
			t.Errorf("HVP differs from differences of the gradient by %v", d)
		}
	}
	if c.hess != nil {
		x := xs[0]
		_, H := c.hess(x)
		n := x.Size()
		for i := range n {
			_, hv := c.hvp(x, tensorops.Basis(x, i))
			row := tensorops.Reshape(tensorops.Slice(H, 0, i, i+1), x.Shape()...)
			if d := tensorops.MaxAbsDiff(row, hv); !(d <= 1e-10) {
				t.Errorf("Hessian row %d differs from the HVP by %v", i, d)
			}
		}
		_, dg := c.diag(x)
		_, lap := c.lap(x)
		want := tensorops.Reshape(tensorops.DiagPart(H), x.Shape()...)
		if d := tensorops.MaxAbsDiff(dg, want); !(d <= 1e-10) {
			t.Errorf("Hessian diagonal differs from the Hessian's by %v", d)
		}
		if tr := tensorops.SumAll(want); !near(lap, tr, 1e-10) {
			t.Errorf("Laplacian %v, want the Hessian's trace %v", lap, tr)
		}
	}
}

// TestFloat32 runs the first-order derivatives in float32 and compares
// them with float64 at the same (rounded) point.
func TestFloat32(t *testing.T) {
	for _, c := range fns {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(8, uint64(len(c.name))))
			x32 := random(rng, c.shapes, tensorops.Float32)
			v32 := random(rng, c.shapes, tensorops.Float32)
			to64 := func(ts []*T) []*T {
				out := make([]*T, len(ts))
				for i, x := range ts {
					out[i] = tensorops.AsType(x, tensorops.Float64)
				}
				return out
			}
			x64, v64 := to64(x32), to64(v32)
			_, d32 := c.jvp(x32, v32)
			_, d64 := c.jvp(x64, v64)
			if !near(d32, d64, 1e-4) {
				t.Errorf("float32 JVP %v, float64 %v", d32, d64)
			}
			_, g32 := c.grad(x32)
			for i, g := range g32 {
				if g.DType() != tensorops.Float32 {
					t.Errorf("gradient %d has dtype %v", i, g.DType())
				}
			}
			_, g64 := c.grad(x64)
			if a, b := dot(to64(g32), v64), dot(g64, v64); !near(a, b, 1e-4) {
				t.Errorf("float32 ⟨gradient, v⟩ %v, float64 %v", a, b)
			}
		})
	}
}

// TestNilShadowFields checks the gradient of a struct of tensors by
// pointer into a shadow with nil fields (each gets a fresh tensor) and
// into one with buffers (added to).
func TestNilShadowFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	c := &Conv{K: tensorops.RandN(rng, tensorops.Float64, 2, 1, 3, 3), B: tensorops.RandN(rng, tensorops.Float64, 2, 1, 1)}
	x := tensorops.RandN(rng, tensorops.Float64, 1, 1, 4, 4)
	var g1 Conv
	ConvPtrLoss(c, x)
	ConvPtrLossGrad(c, &g1, x)
	g2 := Conv{K: g1.K.Clone(), B: g1.B.Clone()}
	ConvPtrLossGrad(c, &g2, x)
	for _, p := range []struct{ got, once *T }{{g2.K, g1.K}, {g2.B, g1.B}} {
		if d := tensorops.MaxAbsDiff(p.got, tensorops.Scale(p.once, 2)); !(d <= 1e-14) {
			t.Errorf("accumulated gradient differs from twice the gradient by %v", d)
		}
	}
}

// TestFit checks the gonum-shaped gradient of a method that views its
// []float64 as a tensor, against the JVP and central differences; the
// gradient overwrites grad.
func TestFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	p := &Fit{A: tensorops.RandN(rng, tensorops.Float64, 4, 3), Y: tensorops.RandN(rng, tensorops.Float64, 4, 1)}
	x := []float64{0.3, -0.7, 1.1}
	grad := []float64{5, 5, 5} // overwritten
	p.FuncGrad(grad, x)
	const h = 1e-6
	for i := range x {
		v := make([]float64, len(x))
		v[i] = 1
		xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
		xp[i] += h
		xm[i] -= h
		fd := (p.Func(xp) - p.Func(xm)) / (2 * h)
		if !near(grad[i], fd, 1e-7) {
			t.Errorf("grad[%d] = %v, want %v (central differences)", i, grad[i], fd)
		}
		if _, d := p.FuncJVP(x, v); !near(d, grad[i], 1e-12) {
			t.Errorf("JVP along e%d = %v, want grad[%d] = %v", i, d, i, grad[i])
		}
	}
	// The second coefficient on a line is half the curvature vᵀHv = 2‖A·v‖².
	v := []float64{1, 2, -1}
	_, _, c2 := p.FuncTaylor(x, v, make([]float64, 3))
	av := tensorops.MatMul(p.A, tensorops.FromFloat64s(v, 3, 1))
	if want := tensorops.SumAll(tensorops.Square(av)); !near(c2, want, 1e-12) {
		t.Errorf("Taylor coefficient 2 = %v, want %v", c2, want)
	}
}

// TestFit32 checks Fit32's derivatives, of a []float32 viewed as a
// float32 tensor, against Fit's in float64 at the same point.
func TestFit32(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	p := &Fit{A: tensorops.RandN(rng, tensorops.Float64, 4, 3), Y: tensorops.RandN(rng, tensorops.Float64, 4, 1)}
	p32 := &Fit32{A: tensorops.AsType(p.A, tensorops.Float32), Y: tensorops.AsType(p.Y, tensorops.Float32)}
	p.A, p.Y = tensorops.AsType(p32.A, tensorops.Float64), tensorops.AsType(p32.Y, tensorops.Float64)
	x32 := []float32{0.25, -0.75, 1.125}
	x := []float64{0.25, -0.75, 1.125}
	grad := make([]float64, 3)
	p.FuncGrad(grad, x)
	g32 := []float32{1, 1, 1} // added to
	p32.FuncGrad(x32, g32)
	v32, v := []float32{1, 2, -1}, []float64{1, 2, -1}
	_, d32 := p32.FuncJVP(x32, v32)
	_, d := p.FuncJVP(x, v)
	_, _, c32 := p32.FuncTaylor(x32, v32, make([]float32, 3))
	_, _, c := p.FuncTaylor(x, v, make([]float64, 3))
	for i := range grad {
		if !near(float64(g32[i])-1, grad[i], 1e-5) {
			t.Errorf("float32 gradient %d = %v (1 added), want %v", i, g32[i], grad[i]+1)
		}
	}
	if !near(d32, d, 1e-5) || !near(c32, c, 1e-5) {
		t.Errorf("float32 JVP %v and Taylor coefficient %v, want %v and %v", d32, c32, d, c)
	}
}

// TestStack checks the gradients of a model of slices of tensors by value
// and by pointer (shadows with no slices: grown) against central
// differences and the JVP.
func TestStack(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	s := Stack{Ws: []*T{tensorops.RandN(rng, tensorops.Float64, 3, 3), tensorops.RandN(rng, tensorops.Float64, 3, 2)}}
	v := Stack{Ws: []*T{tensorops.RandN(rng, tensorops.Float64, 3, 3), tensorops.RandN(rng, tensorops.Float64, 3, 2)}}
	x := tensorops.RandN(rng, tensorops.Float64, 2, 3)
	const h = 1e-6
	move := func(c float64) Stack {
		return Stack{Ws: []*T{tensorops.Add(s.Ws[0], tensorops.Scale(v.Ws[0], c)), tensorops.Add(s.Ws[1], tensorops.Scale(v.Ws[1], c))}}
	}
	fd := (StackLoss(move(h), x) - StackLoss(move(-h), x)) / (2 * h)
	_, jv := StackLossJVP(s, v, x)
	// An unsized tangent by value is zero (its slices are grown in a copy).
	if _, j0 := StackLossJVP(s, Stack{}, x); j0 != 0 {
		t.Errorf("JVP along Stack{} = %v, want 0", j0)
	}
	var g, gp Stack
	StackLossGrad(s, &g, x)
	StackPtrLossGrad(&s, &gp, x)
	for _, c := range []struct {
		what string
		got  float64
		tol  float64
	}{
		{"JVP", jv, 1e-7},
		{"⟨gradient, v⟩ (by value)", tensorops.Dot(g.Ws[0], v.Ws[0]) + tensorops.Dot(g.Ws[1], v.Ws[1]), 1e-7},
		{"⟨gradient, v⟩ (by pointer)", tensorops.Dot(gp.Ws[0], v.Ws[0]) + tensorops.Dot(gp.Ws[1], v.Ws[1]), 1e-7},
	} {
		if !near(c.got, fd, c.tol) {
			t.Errorf("%s = %v, want %v (central differences)", c.what, c.got, fd)
		}
	}
}

// TestLinearLoss checks that the HVP of a loss linear in its model is
// zero and of the model's type.
func TestLinearLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	m := Lin{W: tensorops.RandN(rng, tensorops.Float64, 2, 3), V: tensorops.RandN(rng, tensorops.Float64, 2, 3)}
	x := tensorops.RandN(rng, tensorops.Float64, 2, 3)
	f, hv := LinearLossHVP(m, m, x)
	if want := LinearLoss(m, x); f != want {
		t.Errorf("value %v, want %v", f, want)
	}
	for _, h := range []*T{hv.W, hv.V} {
		if h == nil || tensorops.MaxAll(tensorops.Abs(h)) != 0 {
			t.Errorf("HVP %v, want zeros", h)
		}
	}
}

// TestAddrLoss checks the Hessian's diagonal of a model by value whose
// address goes to a helper: its entries of W against central differences
// of the gradient, and the Laplacian as its sum.
func TestAddrLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	m := Deep{Ws: []*T{tensorops.RandN(rng, tensorops.Float64, 3, 3)}, W: tensorops.RandN(rng, tensorops.Float64, 3, 2)}
	x := tensorops.RandN(rng, tensorops.Float64, 2, 3)
	_, d := AddrLossHessDiag(m, x)
	_, lap := AddrLossLaplacian(m, x)
	if sum := tensorops.SumAll(d.W) + tensorops.SumAll(d.Ws[0]); !near(lap, sum, 1e-10) {
		t.Errorf("Laplacian %v, want the diagonal's sum %v", lap, sum)
	}
	const h = 1e-5
	for i := range m.W.Size() {
		e := tensorops.Basis(m.W, i)
		grad := func(s float64) float64 {
			mm := m
			mm.W = tensorops.Add(m.W, tensorops.Scale(e, s))
			var g Deep
			AddrLossGrad(mm, &g, x)
			return tensorops.Dot(g.W, e)
		}
		fd := (grad(h) - grad(-h)) / (2 * h)
		if got := tensorops.Dot(d.W, e); !near(got, fd, 1e-6) {
			t.Errorf("diagonal of W, element %d: %v, want %v (differences of the gradient)", i, got, fd)
		}
	}
}

// TestSpreadOne checks the report's numbers.
func TestSpreadOne(t *testing.T) {
	x := tensorops.FromFloat64s([]float64{0.5, -2}, 2)
	ones := tensorops.Ones(2)
	if _, d := SpreadOneJVP(x, ones); d != 2 {
		t.Errorf("JVP along ones = %v, want 2", d)
	}
	if _, g := SpreadOneGrad(x); g == nil || g.At(0) != 1 || g.At(1) != 1 {
		t.Errorf("gradient %v, want [1 1]", g)
	}
	if _, c1, c2 := SpreadOneTaylor(x, ones, nil); c1 != 2 || c2 != 0 {
		t.Errorf("Taylor coefficients %v, %v, want 2, 0", c1, c2)
	}
	if _, hv := SpreadOneHVP(x, ones); hv == nil || tensorops.MaxAll(tensorops.Abs(hv)) != 0 {
		t.Errorf("HVP %v, want zeros", hv)
	}
}
