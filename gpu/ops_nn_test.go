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

// hostDevice installs the host shim as device 0 for one test.
func hostDevice(t *testing.T) T.Device {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	t.Cleanup(func() { useLaunchers(nil) })
	return Device(0)
}

// TestHostNNLog checks the log of nn.h's kernels (devmath.h's gad_log) through LogSumExp: rows of k
// zeros then −Infs (log k, exactly s = k), and rows [0, t] (log(1+e^t)),
// within 1 ulp of Go's math.Log (and the exp's error).
func TestHostNNLog(t *testing.T) {
	dev := hostDevice(t)
	const n = 200
	x := T.Full(T.Float64, math.Inf(-1), n, n)
	for i := range n {
		for j := 0; j <= i; j++ {
			x.Set(0, i, j)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	ts := make([]float64, 1000)
	pairs := T.New(T.Float64, len(ts), 2)
	for i := range ts {
		ts[i] = -20 + 20*rng.Float64()
		pairs.Set(ts[i], i, 1)
	}
	got := T.LogSumExp(x.To(dev), 1).To(T.CPU).Float64s()
	got2 := T.LogSumExp(pairs.To(dev), 1).To(T.CPU).Float64s()
	check := func(what string, g, w, slack float64) {
		if ulp := math.Abs(math.Nextafter(w, math.Inf(1)) - w); !(math.Abs(g-w) <= ulp+slack) {
			t.Errorf("%s: got %v, want %v", what, g, w)
		}
	}
	for i, g := range got {
		check(fmt.Sprintf("log(%d)", i+1), g, math.Log(float64(i+1)), 0)
	}
	for i, g := range got2 {
		// 1+e^t may differ by an ulp, from the exp: log by 2.2e-16.
		check(fmt.Sprintf("log(1+exp(%v))", ts[i]), g, math.Log(1+math.Exp(ts[i])), 2.3e-16)
	}
}

// TestHostNNForms checks the block forms of nn.h's kernels (the
// conformance suite's shapes mostly take the thread forms) against the
// CPU: long rows, strided rows, NaN and −Inf rows.
func TestHostNNForms(t *testing.T) {
	dev := hostDevice(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		rtol, atol := 1e-13, 1e-15
		if dt == T.Float32 {
			rtol, atol = 1e-6, 1e-7
		}
		for _, tc := range []struct {
			shape []int
			axis  int
		}{
			{[]int{5, 1000}, 1}, {[]int{2, 200, 3}, 1}, {[]int{3, 7, 70}, 2}, {[]int{1000, 3}, 0}, {[]int{4, 64}, -1},
		} {
			x := T.AsType(T.RandN(rng, T.Float64, tc.shape...), dt)
			if tc.axis == 1 && tc.shape[0] > 2 {
				row := T.Slice(x, 0, 1, 2)
				T.Fill(row, math.Inf(-1))
				x.Set(math.NaN(), 2, 3)
			}
			xd := x.To(dev)
			for _, op := range []struct {
				name string
				f    func(*T.Tensor, int) *T.Tensor
			}{{"Softmax", T.Softmax}, {"LogSoftmax", T.LogSoftmax}, {"LogSumExp", T.LogSumExp}} {
				if err := closeTo(op.f(xd, tc.axis), op.f(x, tc.axis), rtol, atol); err != nil {
					t.Errorf("%v %s(%v, %d): %v", dt, op.name, tc.shape, tc.axis, err)
				}
			}
		}
		for _, shape := range [][]int{{4, 300}, {3, 70}, {2, 1000}} {
			x := T.AsType(T.RandN(rng, T.Float64, shape...), dt)
			y := T.AsType(T.Softmax(T.RandN(rng, T.Float64, shape...), 1), dt)
			got := T.SoftmaxCrossEntropy(x.To(dev), y.To(dev))
			if want := T.SoftmaxCrossEntropy(x, y); !(math.Abs(got-want) <= rtol*math.Abs(want)) {
				t.Errorf("%v SoftmaxCrossEntropy(%v): got %v, want %v", dt, shape, got, want)
			}
		}
	}
}
