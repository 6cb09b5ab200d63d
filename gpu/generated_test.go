package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/tensorlap"
	"github.com/gadgen/gadgen/bench/tensormlp"
	"github.com/gadgen/gadgen/examples/transformer"
	"github.com/gadgen/gadgen/internal/e2e/cases/cnn"
	"github.com/gadgen/gadgen/internal/e2e/cases/tensors"
	T "github.com/gadgen/gadgen/tensorops"
)

// TestGeneratedDevice is TestHostGenerated on GPU 0, with the tolerances
// of another order of additions (cuBLAS's, the GPU's contractions).
func TestGeneratedDevice(t *testing.T) {
	// Only on a machine with a GPU: CI has none and never runs it (TestHostGenerated
	// runs the same derivatives through the host shim everywhere).
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	generatedOn(t, Device(0), 1e-9, 1e-4)
}

// generatedOn runs derivatives that gadgen generated, unchanged, on
// tensors on dev, against the same on the CPU, within the relative
// tolerances tol64 (float64) and tol32 (float32): the perceptron's
// gradient and JVP (bench/tensormlp, small sizes, float64 and float32);
// the 64-layer network's Hessian, Laplacian and HVPs (bench/tensorlap, a
// small network) and a Hessian's diagonal; a transformer block's gradient
// (examples/transformer: attention heads joined by Concat from a slice,
// Softmax, layer norms); a CNN's gradient and its input's HVP
// (internal/e2e/cases/cnn: Conv2D, GELU, MaxPool2D, cross-entropy).
func generatedOn(t *testing.T, dev T.Device, tol64, tol32 float64) {
	to := func(m *tensormlp.MLP, d T.Device) *tensormlp.MLP {
		return &tensormlp.MLP{W1: m.W1.To(d), B1: m.B1.To(d), W2: m.W2.To(d), B2: m.B2.To(d), W3: m.W3.To(d), B3: m.B3.To(d)}
	}
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		t.Run(dt.String(), func(t *testing.T) {
			tol := tol64
			if dt == T.Float32 {
				tol = tol32
			}
			m, x, y := tensormlp.New(dt, 12, 9, 5, 7, 1)
			g := tensormlp.Zeros(m)
			loss := tensormlp.LossGrad(m, g, x, y)
			gd := to(tensormlp.Zeros(m), dev)
			md, xd, yd := to(m, dev), x.To(dev), y.To(dev)
			lossd := tensormlp.LossGrad(md, gd, xd, yd)
			if !(math.Abs(lossd-loss) <= tol*math.Max(1, math.Abs(loss))) {
				t.Errorf("LossGrad's value on the device %v, on the CPU %v", lossd, loss)
			}
			for i, want := range g.Tensors() {
				got := gd.Tensors()[i]
				if got.Device() != dev {
					t.Errorf("gradient tensor %d on %v, want %v", i, got.Device(), dev)
				}
				if err := closeTo(got, want, tol, tol); err != nil {
					t.Errorf("gradient tensor %d: %v", i, err)
				}
			}
			dm := tensormlp.Zeros(m)
			for _, p := range dm.Tensors() {
				T.Fill(p, 0.25)
			}
			_, tan := tensormlp.LossJVP(m, dm, x, y)
			_, tand := tensormlp.LossJVP(md, to(dm, dev), xd, yd)
			if !(math.Abs(tand-tan) <= tol*math.Max(1, math.Abs(tan))) {
				t.Errorf("LossJVP's tangent on the device %v, on the CPU %v", tand, tan)
			}
		})
	}
	t.Run("higher", func(t *testing.T) {
		n, x := tensorlap.New(5, 6, 3, 2)
		nd := &tensorlap.Net{Out: n.Out.To(dev)}
		for i := range n.Ws {
			nd.Ws = append(nd.Ws, n.Ws[i].To(dev))
			nd.Bs = append(nd.Bs, n.Bs[i].To(dev))
		}
		xd := x.To(dev)
		_, h := tensorlap.FHessian(n, x)
		_, hd := tensorlap.FHessian(nd, xd)
		if err := closeTo(hd, h, tol64, tol64); err != nil {
			t.Errorf("FHessian: %v", err)
		}
		for _, c := range []struct {
			name string
			f    func(*tensorlap.Net, *T.Tensor) (float64, float64)
		}{{"FLaplacian", tensorlap.FLaplacian}} {
			f, lap := c.f(n, x)
			fd, lapd := c.f(nd, xd)
			if !(math.Abs(fd-f) <= tol64) || !(math.Abs(lapd-lap) <= tol64*math.Max(1, math.Abs(lap))) {
				t.Errorf("%s on the device (%v, %v), on the CPU (%v, %v)", c.name, fd, lapd, f, lap)
			}
		}
		// A Hessian's diagonal: the result on x's device.
		q := T.Scale(T.RandN(rand.New(rand.NewPCG(1, 2)), T.Float64, 3, 3), 0.4)
		_, dq := tensors.QuadHessDiag(q)
		_, dqd := tensors.QuadHessDiag(q.To(dev))
		if dqd.Device() != dev {
			t.Errorf("QuadHessDiag's diagonal on %v, want %v", dqd.Device(), dev)
		}
		if err := closeTo(dqd, dq, tol64, tol64); err != nil {
			t.Errorf("QuadHessDiag: %v", err)
		}
		// The HVPs along 8 directions (ByHVP8 reads them on the host).
		var u, ud [8]*T.Tensor
		for l := range u {
			u[l] = T.Basis(x, l)
			ud[l] = u[l].To(dev)
		}
		_, h1, h2, h3, h4, h5, h6, h7, h8 := tensorlap.FHVP8(n, x, u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7])
		_, d1, d2, d3, d4, d5, d6, d7, d8 := tensorlap.FHVP8(nd, xd, ud[0], ud[1], ud[2], ud[3], ud[4], ud[5], ud[6], ud[7])
		for l, hv := range []*T.Tensor{h1, h2, h3, h4, h5, h6, h7, h8} {
			if err := closeTo([]*T.Tensor{d1, d2, d3, d4, d5, d6, d7, d8}[l], hv, tol64, tol64); err != nil {
				t.Errorf("FHVP8, direction %d: %v", l+1, err)
			}
		}
		// The methods of the table whose own code stays on the device.
		for _, m := range tensorlap.Methods {
			if m.Name != "trace of the Hessian" && m.Name != "D Taylor jets" && m.Name != "collapsed Taylor" {
				continue
			}
			if got, want := m.Opt(nd, xd), m.Opt(n, x); !(math.Abs(got-want) <= tol64*math.Max(1, math.Abs(want))) {
				t.Errorf("%s on the device %v, on the CPU %v", m.Name, got, want)
			}
		}
	})
	t.Run("transformer", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for _, dt := range []T.DType{T.Float64, T.Float32} {
			tol := tol64
			if dt == T.Float32 {
				tol = tol32
			}
			m := transformer.New(rng, dt)
			x, y := T.RandN(rng, dt, 5, transformer.Width), T.RandN(rng, dt, 5, transformer.Width)
			md := &transformer.Block{}
			for i, p := range m.Fields() {
				*md.Fields()[i] = (*p).To(dev)
			}
			var g, gd transformer.Block
			f := transformer.LossGrad(m, &g, x, y)
			fd := transformer.LossGrad(md, &gd, x.To(dev), y.To(dev))
			if !(math.Abs(fd-f) <= tol*math.Max(1, math.Abs(f))) {
				t.Errorf("%v: LossGrad's value on the device %v, on the CPU %v", dt, fd, f)
			}
			for i, p := range gd.Fields() {
				if err := closeTo(*p, *g.Fields()[i], tol, tol); err != nil {
					t.Errorf("%v: gradient field %d: %v", dt, i, err)
				}
			}
		}
	})
	t.Run("cnn", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		r := func(shape ...int) *T.Tensor { return T.Scale(T.RandN(rng, T.Float64, shape...), 0.5) }
		m := &cnn.CNN{K: r(4, 2, 3, 3), KB: r(4, 1, 1), W: r(36, 3), B: r(3)}
		md := &cnn.CNN{K: m.K.To(dev), KB: m.KB.To(dev), W: m.W.To(dev), B: m.B.To(dev)}
		x := r(5, 2, 6, 6)
		y := T.OneHot([]int{0, 2, 1, 1, 0}, 3, T.Float64)
		var g, gd cnn.CNN
		cnn.LossGrad(m, &g, x, y)
		cnn.LossGrad(md, &gd, x.To(dev), y.To(dev))
		for _, p := range []struct {
			name      string
			got, want *T.Tensor
		}{{"K", gd.K, g.K}, {"KB", gd.KB, g.KB}, {"W", gd.W, g.W}, {"B", gd.B, g.B}} {
			if err := closeTo(p.got, p.want, tol64, tol64); err != nil {
				t.Errorf("gradient %s: %v", p.name, err)
			}
		}
		v := r(5, 2, 6, 6)
		_, hv := cnn.InputLossHVP(m, x, v, y)
		_, hvd := cnn.InputLossHVP(md, x.To(dev), v.To(dev), y.To(dev))
		if err := closeTo(hvd, hv, tol64, tol64); err != nil {
			t.Errorf("InputLossHVP: %v", err)
		}
	})
}

// closeTo reports the first element where got (on the device) and want
// (on the host) differ by more than rtol·|want| + atol; NaNs match NaNs.
func closeTo(got, want *T.Tensor, rtol, atol float64) error {
	g, w := T.AsType(got.To(T.CPU), T.Float64).Contiguous().Float64s(), T.AsType(want, T.Float64).Contiguous().Float64s()
	if len(g) != len(w) {
		return fmt.Errorf("got %d elements, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i] == w[i] || math.IsNaN(g[i]) && math.IsNaN(w[i]) {
			continue
		}
		if !(math.Abs(g[i]-w[i]) <= atol+rtol*math.Abs(w[i])) {
			return fmt.Errorf("element %d: got %v, want %v", i, g[i], w[i])
		}
	}
	return nil
}
