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

// TestBinomial checks that the gradients with binomial checkpointing are
// the plain one, for step counts below, at and above the number of copies.
func TestBinomial(t *testing.T) {
	m, x0 := Data(3)
	grads := map[int]func(m, x0, g []float64, steps int) float64{
		10: Checkpoint10Grad, 32: Checkpoint32Grad, 100: Checkpoint100Grad, 316: Checkpoint316Grad, 1000: Checkpoint1000Grad,
	}
	for _, steps := range []int{0, 1, 9, 10, 11, 57, 500} {
		want := make([]float64, len(x0))
		f := PlainGrad(m, x0, want, steps)
		for c, grad := range grads {
			got := make([]float64, len(x0))
			if g := grad(m, x0, got, steps); g != f {
				t.Errorf("steps=%d checkpoint=%d: value %v, want %v", steps, c, g, f)
			}
			fdcheck.Close(t, "binomial", got, want, 1e-12)
		}
	}
}
