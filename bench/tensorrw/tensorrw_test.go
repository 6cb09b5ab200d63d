package tensorrw

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestSliceProgram checks the optimized JVP against the opt=0 one.
func TestSliceProgram(t *testing.T) {
	x, y, z, dx, dy, dz := SliceInputs(1000, 10, 1)
	f, d := SliceProgramJVP(x, dx, y, dy, z, dz)
	f0, d0 := SliceProgramJVPO0(x, dx, y, dy, z, dz)
	if f != SliceProgram(x, y, z) || !(math.Abs(f-f0) <= 1e-13*math.Abs(f0)) || !(math.Abs(d-d0) <= 1e-12*(1+math.Abs(d0))) {
		t.Errorf("SliceProgramJVP (%v, %v), opt=0 (%v, %v)", f, d, f0, d0)
	}
}

// TestDiagProgram checks the optimized gradient against the opt=0 one.
func TestDiagProgram(t *testing.T) {
	v, a, b := DiagInputs(50, 7, 1)
	f, vb, ab, bb := DiagProgramGrad(v, a, b)
	f0, vb0, ab0, bb0 := DiagProgramGradO0(v, a, b)
	if !(math.Abs(f-f0) <= 1e-12*math.Abs(f0)) {
		t.Errorf("DiagProgram %v, opt=0 %v", f, f0)
	}
	for _, c := range []struct {
		what      string
		got, want *tensorops.Tensor
	}{{"v̄", vb, vb0}, {"ā", ab, ab0}, {"b̄", bb, bb0}} {
		if d := tensorops.MaxAbsDiff(c.got, c.want); !(d <= 1e-12*(1+tensorops.MaxAll(tensorops.Abs(c.want)))) {
			t.Errorf("DiagProgramGrad %s: optimized and opt=0 differ by %v", c.what, d)
		}
	}
}

// BenchmarkDiag times the gradient of DiagProgram at n = 2000, m = 64,
// with and without the rewrites, and reports the speedup.
func BenchmarkDiag(b *testing.B) {
	tensorops.SetThreads(1)
	defer tensorops.SetThreads(0)
	v, a, w := DiagInputs(2000, 64, 1)
	var off float64
	b.Run("opt=0", func(b *testing.B) {
		for b.Loop() {
			DiagProgramGradO0(v, a, w)
		}
		off = float64(b.Elapsed()) / float64(b.N)
	})
	b.Run("opt", func(b *testing.B) {
		for b.Loop() {
			DiagProgramGrad(v, a, w)
		}
		b.ReportMetric(off/(float64(b.Elapsed())/float64(b.N)), "speedup")
	})
}

// BenchmarkSlice times the JVP of SliceProgram at n = 10⁵, k = 10, with
// and without the rewrites, and reports the speedup.
func BenchmarkSlice(b *testing.B) {
	tensorops.SetThreads(1)
	defer tensorops.SetThreads(0)
	x, y, z, dx, dy, dz := SliceInputs(100000, 10, 1)
	var off float64
	b.Run("opt=0", func(b *testing.B) {
		for b.Loop() {
			SliceProgramJVPO0(x, dx, y, dy, z, dz)
		}
		off = float64(b.Elapsed()) / float64(b.N)
	})
	b.Run("opt", func(b *testing.B) {
		for b.Loop() {
			SliceProgramJVP(x, dx, y, dy, z, dz)
		}
		b.ReportMetric(off/(float64(b.Elapsed())/float64(b.N)), "speedup")
	})
}
