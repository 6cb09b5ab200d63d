//go:build cgo

package gpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// TestHostArgMaxForms checks the block form of the argmax kernels (the
// conformance suite's shapes mostly take the thread form) in their three
// modes against the CPU, with ties and NaNs: ArgMax, MaxGrad, MaxJVP,
// MaxAllGrad and MaxAllJVP, which must agree exactly.
func TestHostArgMaxForms(t *testing.T) {
	dev := hostDevice(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for _, tc := range []struct {
			shape []int
			axis  int
		}{
			{[]int{4, 300}, 1}, {[]int{2, 500, 3}, 1}, {[]int{3, 1000}, -1}, {[]int{600, 2}, 0},
		} {
			x := T.New(T.Float64, tc.shape...)
			v := x.Float64s()
			for i := range v {
				v[i] = float64(rng.IntN(7)) // ties
			}
			v[len(v)/2] = math.NaN()
			x = T.AsType(x, dt)
			ax := (tc.axis + len(tc.shape)) % len(tc.shape)
			red := slices.Delete(slices.Clone(tc.shape), ax, ax+1)
			g := T.AsType(T.RandN(rng, T.Float64, red...), dt)
			da := T.AsType(T.RandN(rng, T.Float64, tc.shape...), dt)
			xd, gd, dad := x.To(dev), g.To(dev), da.To(dev)
			if got, want := T.ArgMax(xd, tc.axis), T.ArgMax(x, tc.axis); !slices.Equal(got, want) {
				t.Errorf("%v ArgMax(%v, %d): got %v, want %v", dt, tc.shape, tc.axis, got, want)
			}
			if err := closeTo(T.MaxGrad(xd, gd, tc.axis), T.MaxGrad(x, g, tc.axis), 0, 0); err != nil {
				t.Errorf("%v MaxGrad(%v, %d): %v", dt, tc.shape, tc.axis, err)
			}
			if err := closeTo(T.MaxJVP(xd, dad, tc.axis), T.MaxJVP(x, da, tc.axis), 0, 0); err != nil {
				t.Errorf("%v MaxJVP(%v, %d): %v", dt, tc.shape, tc.axis, err)
			}
			if err := closeTo(T.MaxAllGrad(xd, 1.5), T.MaxAllGrad(x, 1.5), 0, 0); err != nil {
				t.Errorf("%v MaxAllGrad(%v): %v", dt, tc.shape, err)
			}
			if got, want := T.MaxAllJVP(xd, dad), T.MaxAllJVP(x, da); got != want {
				t.Errorf("%v MaxAllJVP(%v): got %v, want %v", dt, tc.shape, got, want)
			}
		}
	}
}
