package gpu

import (
	"errors"
	"slices"
	"testing"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// TestAvailable checks that Available answers with nil or one of the
// documented errors (on a machine without a GPU: ErrNoDriver, or
// ErrNoDevice when the driver library is installed).
func TestAvailable(t *testing.T) {
	err := Available()
	t.Logf("Available: %v; Count: %d", err, Count())
	if err != nil && !errors.Is(err, ErrNoDriver) && !errors.Is(err, ErrNoDevice) {
		t.Errorf("Available: got %v, want nil, ErrNoDriver or ErrNoDevice", err)
	}
	if err == nil && Count() == 0 {
		t.Errorf("Available: nil, but Count is 0")
	}
	if err != nil {
		if _, err2 := Name(0); err2 == nil {
			t.Errorf("Name(0): no error without a device")
		}
	}
	if d := Device(3); d != (T.Device{Kind: T.CUDAKind, ID: 3}) || d.String() != "cuda:3" {
		t.Errorf("Device(3): got %v", d)
	}
}

// TestConformanceDevice runs the conformance suite on GPU 0, when there is one.
func TestConformanceDevice(t *testing.T) {
	// Only on a machine with a GPU: CI has none and never runs it
	// (TestConformanceHost runs the suite through the host shim everywhere).
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	name, err := Name(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("device 0: %s", name)
	conformanceRun(t, deviceBackend("gpu "+name, Device(0)))
}

func TestGeom(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shape   []int
		strides [][]int
		nd      int64
		shp     []int64
		st      [][]int64
	}{
		{"scalar", []int{}, [][]int{{}, {}}, 1, []int64{1}, [][]int64{{0}, {0}}},
		{"contiguous", []int{2, 3, 4}, [][]int{{12, 4, 1}, {12, 4, 1}}, 1, []int64{24}, [][]int64{{1}, {1}}},
		{"row broadcast", []int{3, 4}, [][]int{{4, 1}, {0, 1}}, 2, []int64{3, 4}, [][]int64{{4, 1}, {0, 1}}},
		{"size-1 dims", []int{1, 3, 1, 4}, [][]int{{12, 4, 4, 1}, {12, 4, 4, 1}}, 1, []int64{12}, [][]int64{{1}, {1}}},
		{"transposed", []int{3, 4}, [][]int{{4, 1}, {1, 3}}, 2, []int64{3, 4}, [][]int64{{4, 1}, {1, 3}}},
		{"padded rows", []int{2, 3, 4}, [][]int{{12, 4, 1}, {21, 7, 1}}, 2, []int64{6, 4}, [][]int64{{4, 1}, {7, 1}}},
	} {
		g, err := geom(tc.shape, tc.strides...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ok := g.ND == tc.nd && slices.Equal(g.Shape[:g.ND], tc.shp)
		for k := range tc.st {
			ok = ok && slices.Equal(g.St[k][:g.ND], tc.st[k])
		}
		if !ok {
			t.Errorf("%s: got nd %d shape %v strides %v, want %d %v %v", tc.name, g.ND, g.Shape[:g.ND], g.St, tc.nd, tc.shp, tc.st)
		}
	}
	if launch.GeomBytes != 272 {
		t.Errorf("GeomBytes = %d, want 272 (struct gad_geom)", launch.GeomBytes)
	}
}

// TestCheckArgs checks that a launch whose arguments differ from the
// kernel's declaration fails.
func TestCheckArgs(t *testing.T) {
	ks := unaryOps["Neg"]
	k := &ks[0]
	if err := checkArgs(k, newArgs().Geom(new(launch.Geom)).Ptr(0).Ptr(0).F64(1).F64(2)); err != nil {
		t.Errorf("matching arguments: %v", err)
	}
	if err := checkArgs(k, newArgs().Geom(new(launch.Geom)).Ptr(0).Ptr(0).F32(1).F32(2)); err == nil {
		t.Errorf("float arguments to a double kernel: no error")
	}
	if err := checkArgs(k, newArgs().Ptr(0)); err == nil {
		t.Errorf("too few arguments: no error")
	}
}
