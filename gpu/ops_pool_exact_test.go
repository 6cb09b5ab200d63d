package gpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// TestPoolGatherExactDevice is TestHostPoolGatherExact on GPU 0: the
// kernels' order of additions holds on the device too (they add without
// products, so contraction cannot change them).
func TestPoolGatherExactDevice(t *testing.T) {
	// Only on a machine with a GPU: CI has none and never runs it
	// (TestHostPoolGatherExact runs everywhere).
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	poolGatherExact(t, Device(0))
}

// poolGatherExact checks that the kernels of pooling.h and gather.h give
// the CPU's numbers bit for bit on dev, as their comments claim: the
// max-pooling adjoint and the scatter-add gather their terms in the order
// in which the CPU scatters them (ties in the maxima, overlapping windows,
// many repeated indices), the average pooling sums in float64 in the
// CPU's order.
func poolGatherExact(t *testing.T, dev T.Device) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		randInts := func(shape ...int) *T.Tensor { // ties
			x := T.New(T.Float64, shape...)
			for i := range x.Float64s() {
				x.Float64s()[i] = float64(rng.IntN(5))
			}
			return T.AsType(x, dt)
		}
		randn := func(shape ...int) *T.Tensor { return T.AsType(T.RandN(rng, T.Float64, shape...), dt) }
		for _, pc := range []struct {
			x                 []int
			size, stride, pad int
		}{
			{[]int{3, 4, 17, 19}, 3, 1, 1},
			{[]int{2, 3, 16, 16}, 2, 2, 0},
			{[]int{1, 5, 9, 11}, 4, 3, 2},
		} {
			x := randInts(pc.x...)
			out := T.MaxPool2D(x, pc.size, pc.stride, pc.pad)
			dx, g := randn(pc.x...), randn(out.Shape()...)
			xd, dxd, gd := x.To(dev), dx.To(dev), g.To(dev)
			for _, c := range []struct {
				name      string
				got, want *T.Tensor
			}{
				{"MaxPool2D", T.MaxPool2D(xd, pc.size, pc.stride, pc.pad), out},
				{"MaxPool2DJVP", T.MaxPool2DJVP(xd, dxd, pc.size, pc.stride, pc.pad), T.MaxPool2DJVP(x, dx, pc.size, pc.stride, pc.pad)},
				{"MaxPool2DGrad", T.MaxPool2DGrad(xd, gd, pc.size, pc.stride, pc.pad), T.MaxPool2DGrad(x, g, pc.size, pc.stride, pc.pad)},
				{"AvgPool2D", T.AvgPool2D(dxd, pc.size, pc.stride, pc.pad), T.AvgPool2D(dx, pc.size, pc.stride, pc.pad)},
				{"AvgPool2DGrad", T.AvgPool2DGrad(gd, xd, pc.size, pc.stride, pc.pad), T.AvgPool2DGrad(g, x, pc.size, pc.stride, pc.pad)},
			} {
				if d := T.MaxAbsDiff(c.got, c.want); d != 0 {
					t.Errorf("%v %s(%v, size %d, stride %d, pad %d): differs from the CPU by up to %v", dt, c.name, pc.x, pc.size, pc.stride, pc.pad, d)
				}
			}
		}
		for _, gc := range []struct {
			shape   []int
			axis, m int
		}{
			{[]int{20, 33}, 0, 2000}, {[]int{3, 7, 5}, 1, 40}, {[]int{2, 6, 9}, -1, 1},
		} {
			a := randn(gc.shape...)
			n := a.Dim(gc.axis)
			idx := make([]int, gc.m)
			for i := range idx {
				idx[i] = rng.IntN(n)
			}
			g := randn(T.Gather(a, gc.axis, idx).Shape()...)
			name := fmt.Sprintf("(%v, %d, %d indices)", gc.shape, gc.axis, gc.m)
			if d := T.MaxAbsDiff(T.Gather(a.To(dev), gc.axis, idx), T.Gather(a, gc.axis, idx)); d != 0 {
				t.Errorf("%v Gather%s: differs from the CPU by up to %v", dt, name, d)
			}
			if d := T.MaxAbsDiff(T.GatherGrad(g.To(dev), a.To(dev), gc.axis, idx), T.GatherGrad(g, a, gc.axis, idx)); d != 0 {
				t.Errorf("%v GatherGrad%s: differs from the CPU by up to %v", dt, name, d)
			}
		}
	}
}
