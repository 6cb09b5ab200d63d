//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/gpu/internal/kern"
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// TestConformanceHost runs tensorops' conformance suite on device 0 with
// the kernels compiled for the host (the host shim): the whole device
// path (tensorops' dispatch, this package's launch code, the kernels)
// except the driver.
func TestConformanceHost(t *testing.T) {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	conformanceRun(t, deviceBackend("gpu host shim", Device(0)))
}

// TestHostKernels checks that the host shim has exactly the PTX's kernels
// (each GAD_KERNEL'd).
func TestHostKernels(t *testing.T) {
	var ptx []string
	for _, e := range parsePTX(t, ptxSM80) {
		ptx = append(ptx, e.name)
	}
	slices.Sort(ptx)
	if host := kern.Kernels(); !slices.Equal(host, ptx) {
		t.Errorf("host shim kernels %v, PTX entries %v", host, ptx)
	}
}

// TestHostExp checks devmath.h's exp through the host shim against Go's
// math.Exp over the whole range, with special values: within 1 ulp.
func TestHostExp(t *testing.T) {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 709.78, 709.79, -745.13, -745.14, -708.4, -720, 1e-300,
		math.Inf(1), math.Inf(-1), math.NaN()}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		xs = append(xs, -746+1456*rng.Float64())
	}
	got := T.Exp(T.FromFloat64s(xs).To(Device(0))).To(T.CPU).Float64s()
	for i, x := range xs {
		want := math.Exp(x)
		if got[i] == want || math.IsNaN(got[i]) && math.IsNaN(want) {
			continue
		}
		if math.IsInf(want, 1) && x < 709.782712893384 {
			// Go's assembly Exp on amd64 overflows early (above about
			// 709.09): compare with e·exp(x−1), to 3 ulps.
			if w := math.E * math.Exp(x-1); math.Abs(got[i]-w) <= 6.7e-16*w {
				continue
			}
		}
		ulp := math.Abs(math.Nextafter(want, math.Inf(1)) - want)
		if want == 0 || math.IsInf(want, 0) || !(math.Abs(got[i]-want) <= ulp) {
			t.Errorf("exp(%v): got %v, want %v", x, got[i], want)
		}
	}
}

// unmergeable returns a tensor of shape [2 1 2 1 …] (18 dimensions) on
// dev, and the shape [2 2 …] it broadcasts to: its strides alternate
// with 0, so no two dimensions merge and the kernels' geometry cannot
// hold them (launch.MaxDims), which the backend reports as not
// implemented.
func unmergeable(dev T.Device) (*T.Tensor, []int) {
	var shape, to []int
	for range 9 {
		shape, to = append(shape, 2, 1), append(to, 2, 2)
	}
	return T.Ones(shape...).To(dev), to
}

// TestHostPanics checks the messages of an op the backend does not
// implement and of operands on different devices.
func TestHostPanics(t *testing.T) {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	x := T.Ones(2, 3).To(Device(0))
	for _, tc := range []struct {
		name, want string
		f          func()
	}{
		{"not implemented", "tensorops: Add: not implemented on cuda:0", func() {
			u, to := unmergeable(Device(0))
			T.Add(u, T.Ones(to...).To(Device(0)))
		}},
		{"mixed", "tensorops: Add: shapes [2 3] and [2 3] are on devices cuda:0 and cpu", func() { T.Add(x, T.Ones(2, 3)) }},
		{"host accessor", "tensorops: At: shape [2 3] is on cuda:0", func() { x.At(0, 0) }},
	} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			tc.f()
			return ""
		}()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: got panic %q, want %q", tc.name, msg, tc.want)
		}
	}
	if s := T.Scale(x, 2).String(); s != "float64[2 3] [[2 2 2] [2 2 2]] on cuda:0" {
		t.Errorf("String: got %q", s)
	}
}
