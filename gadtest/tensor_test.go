package gadtest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/tensorops"
)

type T = tensorops.Tensor

// net is a model with the parts the tensor checks lay out: a tensor, a
// slice of tensors, a float, an unexported tensor, and a field that holds
// no floats.
type net struct {
	W     *T
	Bs    []*T
	Scale float64
	name  string
	extra *T
}

// netLoss is s·Σ tanh(x·W + Σ Bs)² + Σ extra².
func netLoss(n *net, x *T) float64 {
	h := hidden(n, x)
	return n.Scale*tensorops.SumAll(tensorops.Mul(h, h)) + tensorops.SumAll(tensorops.Mul(n.extra, n.extra))
}

func hidden(n *net, x *T) *T {
	a := tensorops.MatMul(x, n.W)
	for _, b := range n.Bs {
		a = tensorops.Add(a, b)
	}
	return tensorops.Tanh(a)
}

// netBug says which derivative is wrong, and how.
type netBug int

const (
	noBug        netBug = iota
	bugB1               // the derivative along Bs[1] is missing
	bugOverwrite        // the gradient overwrites the shadow's tensors
	bugReplace          // the gradient replaces the shadow's tensors by sums
	bugScale            // ∂f/∂Scale is 1% off
)

// netJVP is netLoss's JVP: ds·Σh² + s·Σ 2h(1−h²)⊙(x·dW + Σ dBs) + 2⟨extra, dextra⟩.
func netJVP(bug netBug) func(n, dn *net, x *T) (float64, float64) {
	return func(n, dn *net, x *T) (float64, float64) {
		h := hidden(n, x)
		da := tensorops.MatMul(x, dn.W)
		for i, b := range dn.Bs {
			if !(bug == bugB1 && i == 1) {
				da = tensorops.Add(da, b)
			}
		}
		g := tensorops.Scale(tensorops.Mul(h, tensorops.Affine(tensorops.Mul(h, h), -1, 1)), 2*n.Scale)
		ds := dn.Scale
		if bug == bugScale {
			ds *= 1.01
		}
		d := ds*tensorops.SumAll(tensorops.Mul(h, h)) + tensorops.Dot(g, da) + 2*tensorops.Dot(n.extra, dn.extra)
		return netLoss(n, x), d
	}
}

// netGrad adds netLoss's gradient to nBar.
func netGrad(bug netBug) func(n, nBar *net, x *T) float64 {
	return func(n, nBar *net, x *T) float64 {
		h := hidden(n, x)
		g := tensorops.Scale(tensorops.Mul(h, tensorops.Affine(tensorops.Mul(h, h), -1, 1)), 2*n.Scale)
		add := func(dst **T, v *T) {
			switch {
			case *dst == nil || bug == bugOverwrite:
				*dst = v
			case bug == bugReplace:
				*dst = tensorops.Add(*dst, v)
			default:
				tensorops.AddInto(*dst, v)
			}
		}
		add(&nBar.W, tensorops.MatMul(tensorops.Transpose(x, 1, 0), g))
		for i := range n.Bs {
			if !(bug == bugB1 && i == 1) {
				add(&nBar.Bs[i], tensorops.Sum(g, 0))
			}
		}
		s := tensorops.SumAll(tensorops.Mul(h, h))
		if bug == bugScale {
			s *= 1.01
		}
		nBar.Scale += s
		add(&nBar.extra, tensorops.Scale(n.extra, 2))
		return netLoss(n, x)
	}
}

func newNet(r *rand.Rand, dt tensorops.DType) (*net, *T) {
	n := &net{
		W:     tensorops.Scale(tensorops.RandN(r, dt, 3, 2), 0.5),
		Bs:    []*T{tensorops.RandN(r, dt, 2), tensorops.RandN(r, dt, 2)},
		Scale: 0.7,
		name:  "n",
		extra: tensorops.RandN(r, dt, 4),
	}
	return n, tensorops.RandN(r, dt, 5, 3)
}

// TestTensorChecks runs the checks on right and wrong derivatives of a
// model, in float64 and float32: a right one passes, a wrong one fails
// with a report naming what is wrong.
func TestTensorChecks(t *testing.T) {
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		for _, c := range []struct {
			name string
			bug  netBug
			want string // in the reports of JVP, gradient and dot test; "" for none
		}{
			{"right", noBug, ""},
			{"B1", bugB1, "Bs[1]"},
			{"Scale", bugScale, "Scale"},
		} {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				n, x := newNet(rand.New(rand.NewPCG(1, 2)), dt)
				f := func(n *net) float64 { return netLoss(n, x) }
				jvp := func(n, dn *net) (float64, float64) { return netJVP(c.bug)(n, dn, x) }
				grad := func(n, nBar *net) float64 { return netGrad(c.bug)(n, nBar, x) }
				for _, run := range []struct {
					check string
					fn    func(tb gadtest.TB)
				}{
					{"TensorJVP", func(tb gadtest.TB) { gadtest.TensorJVP(tb, f, jvp, n) }},
					{"TensorGradTo", func(tb gadtest.TB) { gadtest.TensorGradTo(tb, f, grad, n) }},
					{"TensorDot", func(tb gadtest.TB) { // the JVP wrong, the gradient right
						right := func(n, nBar *net) float64 { return netGrad(noBug)(n, nBar, x) }
						gadtest.TensorDot(tb, jvp, gadtest.GradToVJP(right), n)
					}},
				} {
					rec := &recorder{}
					run.fn(rec)
					switch {
					case rec.fatal != "":
						t.Errorf("%s: fatal: %s", run.check, rec.fatal)
					case c.want == "" && len(rec.errs) > 0:
						t.Errorf("%s of right derivatives reported:\n%s", run.check, rec)
					case c.want != "" && !strings.Contains(rec.String(), c.want):
						t.Errorf("%s of a wrong derivative (%s): got reports\n%s\nwant one naming %q", run.check, c.name, rec, c.want)
					}
				}
				if n.name != "n" || f(n) != netLoss(n, x) {
					t.Errorf("the checks changed the point")
				}
			})
		}
	}
}

// TestTensorGradToShadow checks the shadow convention that TensorGradTo
// enforces: fresh tensors for nil ones, then added in place.
func TestTensorGradToShadow(t *testing.T) {
	n, x := newNet(rand.New(rand.NewPCG(3, 4)), tensorops.Float64)
	f := func(n *net) float64 { return netLoss(n, x) }
	for _, c := range []struct {
		bug  netBug
		want string
	}{
		{bugOverwrite, "grad must add the gradient to the tensors of the shadow"},
		{bugReplace, "grad replaced the tensor W of the shadow"},
	} {
		rec := &recorder{}
		gadtest.TensorGradTo(rec, f, func(n, nBar *net) float64 { return netGrad(c.bug)(n, nBar, x) }, n)
		if !strings.Contains(rec.String(), c.want) {
			t.Errorf("bug %d: got reports\n%s\nwant %q", c.bug, rec, c.want)
		}
	}
}

// layer is a struct of tensors passed by value, whose gradient is
// returned.
type layer struct{ W, B *T }

func layerLoss(l layer, x *T) float64 {
	y := tensorops.Add(tensorops.MatMul(x, l.W), l.B)
	return tensorops.SumAll(tensorops.Mul(y, y))
}

// TestTensorGrad checks TensorGrad and GradVJP on a gradient returned by
// value, and that a gradient of the wrong shape is reported.
func TestTensorGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	l, x := layer{tensorops.RandN(r, tensorops.Float64, 3, 2), tensorops.RandN(r, tensorops.Float64, 2)}, tensorops.RandN(r, tensorops.Float64, 4, 3)
	f := func(l layer) float64 { return layerLoss(l, x) }
	grad := func(scale float64, badShape bool) func(l layer) (float64, layer) {
		return func(l layer) (float64, layer) {
			y := tensorops.Scale(tensorops.Add(tensorops.MatMul(x, l.W), l.B), 2)
			g := layer{tensorops.MatMul(tensorops.Transpose(x, 1, 0), y), tensorops.Scale(tensorops.Sum(y, 0), scale)}
			if badShape {
				g.B = tensorops.Reshape(g.B, 1, 2)
			}
			return layerLoss(l, x), g
		}
	}
	jvp := func(l, dl layer) (float64, float64) {
		y := tensorops.Add(tensorops.MatMul(x, l.W), l.B)
		dy := tensorops.Add(tensorops.MatMul(x, dl.W), dl.B)
		return layerLoss(l, x), 2 * tensorops.Dot(y, dy)
	}
	for _, c := range []struct {
		scale    float64
		badShape bool
		want     string
	}{
		{1, false, ""},
		{1.001, false, "⟨∂f/∂B, v⟩"},
		{1, true, "B: shape [1 2], want [2]"},
	} {
		rec := &recorder{}
		gadtest.TensorGrad(rec, f, grad(c.scale, c.badShape), l)
		gadtest.TensorDot(rec, jvp, gadtest.GradVJP(grad(c.scale, c.badShape)), l)
		if got := rec.String(); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("scale %v, bad shape %v: got reports\n%s\nwant %q", c.scale, c.badShape, got, c.want)
		}
	}
}

// TestTensorVJP checks TensorVJP and TensorJVP on a function of one tensor
// with a tensor result, and reports of derivatives that modify their
// arguments or disagree.
func TestTensorVJP(t *testing.T) {
	x := tensorops.RandN(rand.New(rand.NewPCG(7, 8)), tensorops.Float32, 2, 3)
	f := func(x *T) *T { return tensorops.Tanh(x) }
	jvp := func(x, dx *T) (*T, *T) { return f(x), tensorops.TanhJVP(f(x), dx) }
	vjp := func(scale float64) func(x, rBar *T) (*T, *T) {
		return func(x, rBar *T) (*T, *T) { return f(x), tensorops.Scale(tensorops.TanhJVP(f(x), rBar), scale) }
	}
	modifies := func(x, dx *T) (*T, *T) {
		y, dy := jvp(x, dx)
		tensorops.AddInto(x, dx)
		return y, dy
	}
	for _, c := range []struct {
		name string
		run  func(tb gadtest.TB)
		want string
	}{
		{"jvp", func(tb gadtest.TB) { gadtest.TensorJVP(tb, f, jvp, x) }, ""},
		{"vjp", func(tb gadtest.TB) { gadtest.TensorVJP(tb, f, vjp(1), x) }, ""},
		{"dot", func(tb gadtest.TB) { gadtest.TensorDot(tb, jvp, vjp(1), x) }, ""},
		{"wrong vjp", func(tb gadtest.TB) { gadtest.TensorVJP(tb, f, vjp(1.02), x) }, "⟨∂f/∂x, v⟩"},
		{"wrong dot", func(tb gadtest.TB) { gadtest.TensorDot(tb, jvp, vjp(1.02), x) }, "⟨v, Jᵀ·w⟩ (vjp) against ⟨J·v, w⟩ (jvp)"},
		{"modifies", func(tb gadtest.TB) { gadtest.TensorJVP(tb, f, modifies, x) }, "jvp modified x"},
		{"no point", func(tb gadtest.TB) { gadtest.TensorJVP(tb, f, jvp, x, gadtest.Dim(3)) }, "the point is the argument x"},
		{"empty point", func(tb gadtest.TB) { gadtest.TensorJVP(tb, f, jvp, tensorops.New(tensorops.Float32, 0, 3)) },
			"x holds no elements: there is no derivative to check"},
		{"empty result", func(tb gadtest.TB) {
			gadtest.TensorJVP(tb, func(x *T) *T { return tensorops.New(tensorops.Float32, 0) }, jvp, x)
		}, "f's result has no elements: there is no derivative to check"},
	} {
		rec := &recorder{}
		c.run(rec)
		got := rec.String() + rec.fatal
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: got reports\n%s\nwant %q", c.name, got, c.want)
		}
	}
}

// TestShadowAccumulate checks the helpers that build and fill shadows.
func TestShadowAccumulate(t *testing.T) {
	n, _ := newNet(rand.New(rand.NewPCG(9, 10)), tensorops.Float64)
	s := gadtest.Shadow(n)
	if s == n || s.W != nil || len(s.Bs) != 2 || s.Bs[0] != nil || s.extra != nil || s.Scale != 0 || s.name != "n" {
		t.Fatalf("Shadow = %+v, want nil tensors, two nil Bs, zero Scale, the name shared", s)
	}
	gadtest.Accumulate(&s, n)
	gadtest.Accumulate(&s, n)
	if d := tensorops.MaxAbsDiff(s.Bs[1], tensorops.Scale(n.Bs[1], 2)); d != 0 || s.Scale != 2*n.Scale || s.W == n.W {
		t.Errorf("Accumulate twice: Bs[1] off by %v, Scale %v (want %v), W shared %v", d, s.Scale, 2*n.Scale, s.W == n.W)
	}
}
