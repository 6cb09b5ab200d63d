//go:build cgo

package gpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/tensorlap"
	"github.com/gadgen/gadgen/bench/tensormlp"
	"github.com/gadgen/gadgen/internal/e2e/cases/tensors"
	T "github.com/gadgen/gadgen/tensorops"
)

// TestHostGenerated runs derivatives that gadgen generated, unchanged,
// on tensors on the device (kernels through the host shim): the
// perceptron's gradient and JVP (bench/tensormlp, small sizes, float64
// and float32) and the 64-layer network's Hessian and Laplacian
// (bench/tensorlap, a small network), against the same on the CPU.
func TestHostGenerated(t *testing.T) {
	dev := hostDevice(t)
	to := func(m *tensormlp.MLP, d T.Device) *tensormlp.MLP {
		return &tensormlp.MLP{W1: m.W1.To(d), B1: m.B1.To(d), W2: m.W2.To(d), B2: m.B2.To(d), W3: m.W3.To(d), B3: m.B3.To(d)}
	}
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		t.Run(dt.String(), func(t *testing.T) {
			tol := 1e-12
			if dt == T.Float32 {
				tol = 1e-5
			}
			m, x, y := tensormlp.New(dt, 12, 9, 5, 7, 1)
			g := tensormlp.Zeros(m)
			loss := tensormlp.LossGrad(m, g, x, y)
			gd := to(tensormlp.Zeros(m), dev)
			md, xd, yd := to(m, dev), x.To(dev), y.To(dev)
			lossd := tensormlp.LossGrad(md, gd, xd, yd)
			if math.Abs(lossd-loss) > tol*math.Max(1, math.Abs(loss)) {
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
			if math.Abs(tand-tan) > tol*math.Max(1, math.Abs(tan)) {
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
		if err := closeTo(hd, h, 1e-12, 1e-12); err != nil {
			t.Errorf("FHessian: %v", err)
		}
		for _, c := range []struct {
			name string
			f    func(*tensorlap.Net, *T.Tensor) (float64, float64)
		}{{"FLaplacian", tensorlap.FLaplacian}} {
			f, lap := c.f(n, x)
			fd, lapd := c.f(nd, xd)
			if math.Abs(fd-f) > 1e-12 || math.Abs(lapd-lap) > 1e-12*math.Max(1, math.Abs(lap)) {
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
		if err := closeTo(dqd, dq, 1e-12, 1e-12); err != nil {
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
			if err := closeTo([]*T.Tensor{d1, d2, d3, d4, d5, d6, d7, d8}[l], hv, 1e-12, 1e-12); err != nil {
				t.Errorf("FHVP8, direction %d: %v", l+1, err)
			}
		}
		// The methods of the table whose own code stays on the device.
		for _, m := range tensorlap.Methods {
			if m.Name != "trace of the Hessian" && m.Name != "D Taylor jets" && m.Name != "collapsed Taylor" {
				continue
			}
			if got, want := m.Opt(nd, xd), m.Opt(n, x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("%s on the device %v, on the CPU %v", m.Name, got, want)
			}
		}
	})
}
