package panics

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Dot", Gen: fdcheck.Box(6, -2, 2),
			F: func(x []float64) []float64 { return []float64{Dot(x[:3], x[3:])} },
			JVP: func(x, v []float64) []float64 {
				_, d := DotJVP(x[:3], v[:3], x[3:], v[3:])
				return []float64{d}
			}},
		{Name: "MulVec", Gen: fdcheck.Box(2*3+3, -2, 2),
			F: func(x []float64) []float64 {
				dst := make([]float64, 2)
				MulVec(dst, x[:6], 3, x[6:])
				return dst
			},
			JVP: func(x, v []float64) []float64 {
				dst, ddst := make([]float64, 2), make([]float64, 2)
				MulVecJVP(dst, ddst, x[:6], v[:6], 3, x[6:], v[6:])
				return ddst
			}},
		{Name: "LogSum", F: fdcheck.ScalarField(LogSum), JVP: fdcheck.ScalarFieldJVP(LogSumJVP), Gen: fdcheck.Box(4, 0.1, 3)},
		{Name: "At", Gen: fdcheck.Box(4, -2, 2),
			F: func(x []float64) []float64 { return []float64{At(x, 2)} },
			JVP: func(x, v []float64) []float64 {
				_, d := AtJVP(x, v, 2)
				return []float64{d}
			}},
	})
}

// TestPanics checks that each JVP panics where its function does, with
// the same value (the same message, for run-time errors).
func TestPanics(t *testing.T) {
	x3, x4 := []float64{1, 2, 3}, []float64{1, 2, 3, 4}
	tests := []struct {
		name       string
		primal, ad func()
	}{
		{"Dot",
			func() { Dot(x3, x4) },
			func() { DotJVP(x3, x3, x4, x4) }},
		{"MulVec/x",
			func() { MulVec(make([]float64, 2), make([]float64, 6), 3, x4) },
			func() {
				MulVecJVP(make([]float64, 2), make([]float64, 2), make([]float64, 6), make([]float64, 6), 3, x4, x4)
			}},
		{"MulVec/a",
			func() { MulVec(make([]float64, 2), make([]float64, 5), 3, x3) },
			func() {
				MulVecJVP(make([]float64, 2), make([]float64, 2), make([]float64, 5), make([]float64, 5), 3, x3, x3)
			}},
		{"LogSum",
			func() { LogSum([]float64{1, 2, -1, 3}) },
			func() { LogSumJVP([]float64{1, 2, -1, 3}, x4) }},
		{"At",
			func() { At(x3, 3) },
			func() { AtJVP(x3, x3, 3) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := recovered(tt.primal)
			if want == "" {
				t.Fatal("the function did not panic")
			}
			if got := recovered(tt.ad); got != want {
				t.Errorf("JVP panicked with %q, want %q", got, want)
			}
		})
	}
}

// recovered runs f and returns what it panicked with, formatted ("" if it
// did not panic).
func recovered(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
