//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/gpu/internal/kern"
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// TestHostFuse runs tensorops.Fuse, FuseInto and the fused derivative op
// codes (TanhJVP, SigmoidJVP, ReLUJVP: the binary ops TanhGrad,
// SigmoidGrad, ReLUGrad) on device 0 through the host shim, and compares
// them with the CPU: exactly where no math function is involved (the
// kernels are the CPU's formulas), else within the ulps of devmath.h.
func TestHostFuse(t *testing.T) {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	dev := Device(0)
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		rng := rand.New(rand.NewPCG(5, 6))
		rnd := func(lo, hi float64, shape ...int) *T.Tensor {
			x := T.RandN(rng, T.Float64, shape...)
			v := x.Float64s()
			for i := range v {
				v[i] = lo + (hi-lo)*rng.Float64()
			}
			if dt == T.Float32 {
				f := make([]float32, len(v))
				for i := range v {
					f[i] = float32(v[i])
				}
				return T.FromFloat32s(f, shape...)
			}
			return x
		}
		a, b, c := rnd(-2, 2, 7, 33), rnd(-2, 2, 7, 33), rnd(0.5, 2, 33)
		col := rnd(-1, 1, 7, 1)
		for _, tc := range []struct {
			expr  string
			ops   []any
			exact bool
		}{
			{"(1 - a*a)*d - 2*a*b*c", []any{a, b, c, col}, true},
			{"a*b + c", []any{a, b, c}, true},
			{"Exp(a) * Sigmoid(b) / c", []any{a, b, c}, false},
			{"Pow(c, a) + Log(c) - Tanh(b)", []any{a, b, c}, false},
			{"Maximum(a, b) - Minimum(a, c) + ReLU(b)*Abs(a)", []any{a, b, c}, true},
			{"Sign(a) + Step(b) + Square(c) + 3/c", []any{a, b, c}, true},
			{"Sin(a)*Cos(b) + Sqrt(c) + Log1p(c) + Expm1(a)", []any{a, b, c}, false},
			{"TanhJVP(a, b) + SigmoidJVP(b, a) + ReLUJVP(a, b)", []any{a, b}, true},
			{"Affine(a, 1.5, -0.5) - c*b + (a - c)", []any{a, b, 0.25}, true},
			{"a + b", []any{nil, b}, true}, // nil: the separate operations (b's copy)
			{"a * b", []any{a, nil}, true},
			{"-a", []any{a}, true},
			{"Exp(a*b)", []any{col, c}, false}, // broadcast to [7 33]
		} {
			name := fmt.Sprintf("%v %s", dt, tc.expr)
			ops := make([]any, len(tc.ops))
			for i, o := range tc.ops {
				switch o := o.(type) {
				case *T.Tensor:
					ops[i] = o.To(dev)
				case nil:
					ops[i] = (*T.Tensor)(nil)
				default:
					ops[i] = o
				}
			}
			cpuOps := make([]any, len(tc.ops))
			for i, o := range tc.ops {
				if o == nil {
					o = (*T.Tensor)(nil)
				}
				cpuOps[i] = o
			}
			want := T.Fuse(tc.expr, cpuOps...)
			got := T.Fuse(tc.expr, ops...)
			if want == nil {
				if got != nil {
					t.Errorf("%s: got %v, want nil", name, got)
				}
				continue
			}
			checkDev(t, name, got, want, tc.exact)
			// FuseInto into a device buffer of the result's shape: dst
			// itself exactly where the CPU's FuseInto returns its dst.
			newDst := func() *T.Tensor { return T.New(dt, want.Shape()...) }
			cpuDst := newDst()
			intoDst := T.FuseInto(cpuDst, tc.expr, cpuOps...) == cpuDst
			dst := newDst().To(dev)
			r := T.FuseInto(dst, tc.expr, ops...)
			if (r == dst) != intoDst {
				t.Errorf("%s: FuseInto returned dst: %v, on the CPU: %v", name, r == dst, intoDst)
			}
			checkDev(t, name+" FuseInto", r, want, tc.exact)
			// FuseInto into (a copy of) the first operand.
			if x, ok := ops[0].(*T.Tensor); ok && x != nil && sameInts(x.Shape(), want.Shape()) {
				x = x.Clone()
				ops2 := append([]any{x}, ops[1:]...)
				cx := tc.ops[0].(*T.Tensor).Clone()
				intoA := T.FuseInto(cx, tc.expr, append([]any{cx}, cpuOps[1:]...)...) == cx
				r := T.FuseInto(x, tc.expr, ops2...)
				if (r == x) != intoA {
					t.Errorf("%s: FuseInto(a, ...) returned a: %v, on the CPU: %v", name, r == x, intoA)
				}
				checkDev(t, name+" FuseInto(a)", r, want, tc.exact)
			}
		}
		// The derivative op codes through the public ops, with shapes the
		// kernels see strided.
		y, dy := rnd(-1, 1, 9, 5), rnd(-3, 3, 9, 5)
		for _, op := range []struct {
			name string
			f    func(y, dx *T.Tensor) *T.Tensor
		}{{"TanhJVP", T.TanhJVP}, {"SigmoidJVP", T.SigmoidJVP}, {"ReLUJVP", T.ReLUJVP}} {
			want := op.f(T.Transpose(y), T.Transpose(dy))
			got := op.f(T.Transpose(y.To(dev)), T.Transpose(dy.To(dev)))
			checkDev(t, fmt.Sprintf("%v %s", dt, op.name), got, want, true)
			if op.f(y.To(dev), nil) != nil {
				t.Errorf("%s(y, nil): want nil", op.name)
			}
		}
	}
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkDev compares got, on device 0, with want on the CPU: bit for bit
// when exact, else to 1e-14 (float64) or 1e-6 (float32) times 1 + |want|
// (the expressions add terms of order 1).
func checkDev(t *testing.T, name string, got, want *T.Tensor, exact bool) {
	t.Helper()
	if got.Device() == T.CPU {
		t.Errorf("%s: result on the CPU", name)
		return
	}
	g := got.To(T.CPU)
	if !sameInts(g.Shape(), want.Shape()) || g.DType() != want.DType() {
		t.Errorf("%s: got %v %v, want %v %v", name, g.DType(), g.Shape(), want.DType(), want.Shape())
		return
	}
	gv, wv := flat(g), flat(want)
	for i := range wv {
		tol := 1e-14
		if want.DType() == T.Float32 {
			tol = 1e-6
		}
		same := ulps64(gv[i], wv[i]) == 0
		if exact && !same || !same && !(math.Abs(gv[i]-wv[i]) <= tol*(1+math.Abs(wv[i]))) {
			t.Errorf("%s: element %d: got %v, want %v", name, i, gv[i], wv[i])
			return
		}
	}
}

// flat returns t's elements in row-major order as float64s.
func flat(t *T.Tensor) []float64 {
	t = t.Contiguous()
	if t.DType() == T.Float32 {
		var v []float64
		for _, x := range t.Float32s() {
			v = append(v, float64(x))
		}
		return v
	}
	return t.Float64s()
}
