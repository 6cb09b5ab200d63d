package tensorrewrites

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestFuseFires checks that elementwise fusion fires in Fz's optimized
// derivatives (their chains are calls of tensorops.Fuse, with the
// expressions shown, a scalar operand among them) and not in the
// opt=0 ones.
func TestFuseFires(t *testing.T) {
	src := bodies(t, "fuse_grad.go")
	for _, c := range []struct {
		fn, pattern string
	}{
		{"FzJVP", `"a*SigmoidJVP(b, TanhJVP(c, d*e + f*g)) + b*(h + i*j)",`},
		{"LayerJVP", `tensorops.FuseInto(t8, "a*b + c*(d + e)", t7, dh, h, t6[1], t8)`},
		{"FzGrad", `tensorops.FuseInto(t7, "TanhJVP(a, SigmoidJVP(b, c))", h, t, t7)`},
		{"FzGrad", `tensorops.FuseInto(t10, "a*(b*c) + d", t2, s, t8, t10)`},
	} {
		if !strings.Contains(src[c.fn], c.pattern) {
			t.Errorf("fuse-elementwise did not fire in %s: no %s", c.fn, c.pattern)
		}
		if strings.Contains(src[c.fn+"O0"], "tensorops.Fuse(") {
			t.Errorf("%sO0 (opt=0) calls tensorops.Fuse", c.fn)
		}
	}
}

// TestReuseFires checks that buffer reuse fires in Layer's optimized
// derivatives: the activation goes into the buffer of the product x·w,
// the adjoints into those of the products' adjoints.
func TestReuseFires(t *testing.T) {
	src := bodies(t, "fuse_grad.go")
	for _, c := range []struct {
		fn, pattern string
	}{
		{"LayerGrad", `h := tensorops.FuseInto(t, "Tanh(a + b)", t, b)`},
		{"LayerGrad", `t9 := tensorops.FuseInto(t6, "TanhJVP(a, b + c)", h, t6, t8)`},
		{"LayerGrad", `wBar = tensorops.FuseInto(wBar, "a + b", wBar, t11)`},
		{"LayerJVP", `dh := tensorops.FuseInto(t4, "TanhJVP(a, b + c)", h, t4, t5)`},
	} {
		if !strings.Contains(src[c.fn], c.pattern) {
			t.Errorf("reuse-buffer did not fire in %s: no %s", c.fn, c.pattern)
		}
		if strings.Contains(src[c.fn+"O0"], "tensorops.FuseInto(") {
			t.Errorf("%sO0 (opt=0) calls tensorops.FuseInto", c.fn)
		}
	}
}

// TestFuseExact checks that Fz's fused derivatives compute what the
// opt=0 ones do, up to rounding (the other rewrites reorder sums), on
// float64 and float32, with broadcasting operands.
func TestFuseExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		tol := 1e-13
		if dt == tensorops.Float32 {
			tol = 1e-5
		}
		for _, wshape := range [][]int{{3, 40}, {40}} {
			x, dx := tensorops.RandN(rng, dt, 3, 40), tensorops.RandN(rng, dt, 3, 40)
			w, dw := tensorops.RandN(rng, dt, wshape...), tensorops.RandN(rng, dt, wshape...)
			f, d := FzJVP(x, dx, w, dw, 0.7, -0.2)
			f0, d0 := FzJVPO0(x, dx, w, dw, 0.7, -0.2)
			closeTol(t, "Fz", f, f0, tol)
			closeTol(t, "FzJVP", d, d0, tol)
			f, xb, wb, sb := FzGrad(x, w, 0.7)
			f0, xb0, wb0, sb0 := FzGradO0(x, w, 0.7)
			closeTol(t, "FzGrad", f, f0, tol)
			closeTol(t, "FzGrad s̄", sb, sb0, tol)
			if d := tensorops.MaxAbsDiff(xb, xb0); !(d <= tol*(1+tensorops.MaxAll(tensorops.Abs(xb0)))) {
				t.Errorf("FzGrad x̄ (%v, w %v): optimized and opt=0 differ by %v", dt, wshape, d)
			}
			if d := tensorops.MaxAbsDiff(wb, wb0); !(d <= tol*(1+tensorops.MaxAll(tensorops.Abs(wb0)))) {
				t.Errorf("FzGrad w̄ (%v, w %v): optimized and opt=0 differ by %v", dt, wshape, d)
			}
		}
	}
}

// TestReuseExact checks that Layer's derivatives, which write into
// buffers they reuse, compute what the opt=0 ones do, and leave their
// arguments alone: with a bias of the product's shape, a row, and one
// that broadcasts the product to more rows (the buffer does not fit).
func TestReuseExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	dt := tensorops.Float64
	for _, c := range []struct{ x, b []int }{
		{[]int{6, 4}, []int{6, 4}},
		{[]int{6, 4}, []int{4}},
		{[]int{1, 4}, []int{6, 4}},
	} {
		x, dx := tensorops.RandN(rng, dt, c.x...), tensorops.RandN(rng, dt, c.x...)
		w, dw := tensorops.RandN(rng, dt, 4, 4), tensorops.RandN(rng, dt, 4, 4)
		b, db := tensorops.RandN(rng, dt, c.b...), tensorops.RandN(rng, dt, c.b...)
		args := []*tensorops.Tensor{x, dx, w, dw, b, db}
		var saved []*tensorops.Tensor
		for _, a := range args {
			saved = append(saved, a.Clone())
		}
		f, d := LayerJVP(x, dx, w, dw, b, db)
		f0, d0 := LayerJVPO0(x, dx, w, dw, b, db)
		closeTol(t, "Layer", f, f0, 1e-13)
		closeTol(t, "LayerJVP", d, d0, 1e-13)
		f, xb, wb, bb := LayerGrad(x, w, b)
		f0, xb0, wb0, bb0 := LayerGradO0(x, w, b)
		closeTol(t, "LayerGrad", f, f0, 1e-13)
		for _, g := range []struct {
			what      string
			got, want *tensorops.Tensor
		}{{"x̄", xb, xb0}, {"w̄", wb, wb0}, {"b̄", bb, bb0}} {
			if d := tensorops.MaxAbsDiff(g.got, g.want); !(d <= 1e-13*(1+tensorops.MaxAll(tensorops.Abs(g.want)))) {
				t.Errorf("LayerGrad %s (x %v, b %v): optimized and opt=0 differ by %v", g.what, c.x, c.b, d)
			}
		}
		for i, a := range args {
			if tensorops.MaxAbsDiff(a, saved[i]) != 0 {
				t.Errorf("Layer's derivatives (x %v, b %v) changed argument %d", c.x, c.b, i)
			}
		}
	}
}
