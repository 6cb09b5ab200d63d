package checkpoint

import (
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// TestSegmented checks that the segmented gradient is the plain one, for
// segments that divide the steps and segments that do not, and the plain
// one against central differences.
func TestSegmented(t *testing.T) {
	m, x0 := Data(4)
	const steps = 300
	want := make([]float64, len(x0))
	f := PlainGrad(m, x0, want, steps)
	for _, k := range []int{1, 7, 50, 300, 1000} {
		got := make([]float64, len(x0))
		if g := SegmentedGrad(m, x0, got, steps, k); g != f {
			t.Errorf("k=%d: SegmentedGrad = %v, want %v", k, g, f)
		}
		fdcheck.Close(t, "segmented", got, want, 1e-12)
	}
	num := fd.Gradient(nil, func(x []float64) float64 { return Plain(m, x, steps) }, x0, &fd.Settings{Formula: fd.Central, Step: 1e-6})
	fdcheck.Close(t, "plain", want, num, 1e-6)
}
