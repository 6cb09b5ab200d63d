package gpubench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/gpu"
	T "github.com/gadgen/gadgen/tensorops"
)

// TestRunQuick runs the benchmark at the quick sizes: the CPU rows are
// measured, and the GPU's are too when there is a GPU, else they say why
// not.
func TestRunQuick(t *testing.T) {
	r := Run(Quick)
	var buf bytes.Buffer
	r.Markdown(&buf)
	t.Logf("\n%s", buf.String())
	if len(r.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(r.Rows))
	}
	for _, row := range r.Rows {
		if row.CPU <= 0 || row.Loss <= 0 {
			t.Errorf("%v: CPU %v, loss %v", row.DType, row.CPU, row.Loss)
		}
		if err := gpu.Available(); err != nil && (row.GPUErr == "" || !strings.Contains(buf.String(), "GPU: "+err.Error())) {
			t.Errorf("%v: no GPU, but no reason given", row.DType)
		}
		if row.GPUErr == "" {
			tol := 1e-10
			if row.DType == T.Float32 {
				tol = 1e-4
			}
			if row.LossDiff > tol || row.GradDiff > tol {
				t.Errorf("%v: GPU differs from the CPU: loss %v, gradient %v", row.DType, row.LossDiff, row.GradDiff)
			}
		}
	}
}

// TestStep checks that a step lowers the loss.
func TestStep(t *testing.T) {
	m, x, y := newQuick(T.Float64)
	g := zeros(m)
	l0 := Step(m, g, x, y, 0.5)
	l1 := Step(m, g, x, y, 0.5)
	if !(l1 < l0) {
		t.Errorf("loss %v after a step, %v before", l1, l0)
	}
}
