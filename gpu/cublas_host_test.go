//go:build cgo

package gpu

import (
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gadgen/gadgen/bench/tensormlp"
	"github.com/gadgen/gadgen/gpu/internal/kern"
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// blasHost is the host shim as a launcher on which cuBLAS runs (the fake
// cuBLAS, on the shim's memory, which is host memory).
type blasHost struct {
	launch.Launcher
	inContext atomic.Int32
}

const blasHostStream = 0x5eed

func (h *blasHost) withContext(f func(stream uintptr) error) error {
	h.inContext.Add(1)
	defer h.inContext.Add(-1)
	return f(blasHostStream)
}

// TestCublasHost runs the conformance suite's products on device 0 with
// the host shim's kernels and the fake cuBLAS: tensorops' GEMM dispatch
// (batches, transposes, strided and offset operands, the AD helpers) →
// Gemm → the row-major mapping → cuBLAS's column-major arguments, checked
// by the fake as cuBLAS checks them, and the results against the suite's
// reference. Then the same with SetGEMM("tiled"), which must not call
// cuBLAS.
func TestCublasHost(t *testing.T) {
	var f fakeCublas
	useCublas(f.api())
	defer useCublas(nil)
	host := &blasHost{Launcher: kern.Host()}
	useLaunchers(func(int) launch.Launcher { return host })
	defer useLaunchers(nil)

	b := deviceBackend("gpu host shim + fake cuBLAS", Device(0))
	b.Skip = func(op string) (string, bool) {
		if !gemmOps[op] {
			return "not a product", true
		}
		return skipOnDevice(op)
	}
	if s, err := GEMM(0); err != nil || s != "cublas (fake)" {
		t.Fatalf("GEMM(0): %q, %v", s, err)
	}
	conformanceRun(t, b)
	n := f.nCalls()
	if n == 0 {
		t.Fatal("the suite made no cuBLAS call")
	}
	for i, c := range f.calls {
		if c.status != 0 || c.stream != blasHostStream || !c.handleValid {
			t.Fatalf("call %d: %+v (want status 0, stream %#x, a valid handle)", i, c, blasHostStream)
		}
	}
	if f.handles != 1 {
		t.Errorf("%d cuBLAS handles, want 1 per device", f.handles)
	}
	t.Logf("%d cuBLAS calls", n)

	if err := SetGEMM("tiled"); err != nil {
		t.Fatal(err)
	}
	if s, _ := GEMM(0); !strings.HasPrefix(s, "tiled") {
		t.Errorf("GEMM(0) after SetGEMM(tiled): %q", s)
	}
	x := T.Ones(3, 4).To(Device(0))
	if got := T.MatMulT(x, x, false, true).To(T.CPU); got.At(1, 2) != 4 || f.nCalls() != n {
		t.Errorf("tiled: got %v, %d cuBLAS calls (want 4, none)", got.At(1, 2), f.nCalls()-n)
	}
}

// TestCublasHostMLP runs bench/gpu's training step — gadgen's generated
// gradient of the perceptron (its products transposed every way by
// MatMulGradA and AccumulateMatMulGradB), then an SGD update — on device
// 0 with the host shim's kernels and the fake cuBLAS, and compares the
// loss, the gradient and the updated weights with the CPU's.
func TestCublasHostMLP(t *testing.T) {
	var f fakeCublas
	useCublas(f.api())
	defer useCublas(nil)
	useLaunchers(func(int) launch.Launcher { return &blasHost{Launcher: kern.Host()} })
	defer useLaunchers(nil)
	dev := Device(0)
	onDev := func(m *tensormlp.MLP) *tensormlp.MLP {
		ts := m.Tensors()
		for i := range ts {
			ts[i] = ts[i].To(dev)
		}
		return &tensormlp.MLP{W1: ts[0], B1: ts[1], W2: ts[2], B2: ts[3], W3: ts[4], B3: ts[5]}
	}
	step := func(m, g *tensormlp.MLP, x, y *T.Tensor) float64 {
		for _, t := range g.Tensors() {
			T.Fill(t, 0)
		}
		loss := tensormlp.LossGrad(m, g, x, y)
		gs := g.Tensors()
		for i, w := range m.Tensors() {
			T.AddInto(w, T.Scale(gs[i], -0.1))
		}
		return loss
	}
	for _, tc := range []struct {
		dt  T.DType
		tol float64
	}{{T.Float64, 1e-14}, {T.Float32, 1e-5}} {
		m, x, y := tensormlp.New(tc.dt, 30, 17, 5, 9, 1)
		md, gd := onDev(m), onDev(tensormlp.Zeros(m))
		xd, yd := x.To(dev), y.To(dev)
		g := tensormlp.Zeros(m)
		n0 := f.nCalls()
		for it := range 2 {
			ld := step(md, gd, xd, yd)
			lc := step(m, g, x, y)
			if !(math.Abs(ld-lc) <= tc.tol*(1+math.Abs(lc))) {
				t.Errorf("%v step %d: loss %v on the device, %v on the CPU", tc.dt, it, ld, lc)
			}
			for i, want := range append(g.Tensors(), m.Tensors()...) {
				got := append(gd.Tensors(), md.Tensors()...)[i].To(T.CPU)
				if d := T.MaxAbsDiff(got, want); !(d <= tc.tol*(1+T.MaxAll(T.Abs(want)))) {
					t.Errorf("%v step %d: tensor %d (gradient, then weights) differs from the CPU's by %v", tc.dt, it, i, d)
				}
			}
		}
		// Per step 8 products: 3 forward; the 3 weights' gradients; the
		// gradients of h2 and h1.
		if calls := f.nCalls() - n0; calls != 2*8 {
			t.Errorf("%v: %d cuBLAS calls for two steps, want 16", tc.dt, calls)
		}
	}
}

// TestCublasHostShimTiled checks that the plain host shim (which cannot
// run cuBLAS) reports the tiled kernel.
func TestCublasHostShimTiled(t *testing.T) {
	var f fakeCublas
	useCublas(f.api())
	defer useCublas(nil)
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	if s, err := GEMM(0); err != nil || !strings.Contains(s, "tiled (no cuBLAS: the device is not a CUDA driver device)") {
		t.Errorf("GEMM(0) on the host shim: %q, %v", s, err)
	}
}

// BenchmarkGEMMHost runs BenchmarkGEMM's code on the host shim with the
// fake cuBLAS at small sizes: a check of the benchmark, not a measurement.
func BenchmarkGEMMHost(b *testing.B) {
	var f fakeCublas
	useCublas(f.api())
	defer useCublas(nil)
	useLaunchers(func(int) launch.Launcher { return &blasHost{Launcher: kern.Host()} })
	defer useLaunchers(nil)
	benchGEMM(b, []int{16, 40})
}
