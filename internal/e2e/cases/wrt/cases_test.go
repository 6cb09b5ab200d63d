package wrt

import (
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// Each case varies only the wrt= parameters: the others are held at the
// fixed values below.
func TestJVP(t *testing.T) {
	const y0, x0 = 0.7, -1.3
	data := []float64{0.5, 1.5, -2, 3, 0.25}
	xs := []float64{1.2, 0.8, 2.5, 1.9}
	const a0 = 1.5
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "PartialX", Gen: fdcheck.Box(1, -2, 2),
			F: func(x []float64) []float64 { return []float64{PartialX(x[0], y0)} },
			JVP: func(x, v []float64) []float64 {
				_, d := PartialXJVP(x[0], v[0], y0)
				return []float64{d}
			}},
		{Name: "PartialY", Gen: fdcheck.Box(1, -2, 2),
			F: func(x []float64) []float64 { return []float64{PartialY(x0, x[0])} },
			JVP: func(x, v []float64) []float64 {
				_, d := PartialYJVP(x0, x[0], v[0])
				return []float64{d}
			}},
		{Name: "Loss", Gen: fdcheck.Box(2, -2, 2),
			F: func(x []float64) []float64 { return []float64{Loss(x, data)} },
			JVP: func(x, v []float64) []float64 {
				_, d := LossJVP(x, v, data)
				return []float64{d}
			}},
		{Name: "Outer", Gen: fdcheck.Box(2, 0.5, 2),
			F: func(x []float64) []float64 { return []float64{Outer(x[0], y0, x[1])} },
			JVP: func(x, v []float64) []float64 {
				_, d := OuterJVP(x[0], v[0], y0, x[1], v[1])
				return []float64{d}
			}},
		{Name: "LogLik", Gen: fdcheck.Box(2, 0.5, 2),
			F: func(x []float64) []float64 { return []float64{LogLik(Params{x[0], x[1]}, xs)} },
			JVP: func(x, v []float64) []float64 {
				_, d := LogLikJVP(Params{x[0], x[1]}, Params{v[0], v[1]}, xs)
				return []float64{d}
			}},
		{Name: "Scale", Gen: fdcheck.Box(4, -2, 2),
			F: func(x []float64) []float64 {
				dst := make([]float64, 4)
				Scale(dst, a0, x)
				return dst
			},
			JVP: func(x, v []float64) []float64 {
				dst, ddst := make([]float64, 4), make([]float64, 4)
				ScaleJVP(dst, ddst, a0, x, v)
				return ddst
			}},
		{Name: "All", F: fdcheck.Binary(All), JVP: fdcheck.BinaryJVP(AllJVP), Gen: fdcheck.Box(2, -2, 2)},
		{Name: "Energy", Gen: fdcheck.Box(3, -2, 2),
			F: func(x []float64) []float64 { return []float64{Energy(layer, x)} },
			JVP: func(x, v []float64) []float64 {
				_, d := EnergyJVP(layer, x, v)
				return []float64{d}
			}},
	})
}

// layer is Energy's fixed layer.
var layer = &Layer{W: [][]float64{{0.5, -1}, {2}, {0.25, 0.75, -0.5}}}

// Each lane of EnergyTaylor is the JVP along its direction alone.
func TestEnergyLanes(t *testing.T) {
	x := []float64{0.3, -1.2, 0.8}
	u, v := []float64{1, -0.5, 2}, []float64{0.25, 0.5, -1}
	f, du, dv := EnergyTaylor(layer, x, u, v)
	_, wantU := EnergyJVP(layer, x, u)
	_, wantV := EnergyJVP(layer, x, v)
	fdcheck.Close(t, "lanes", []float64{f, du, dv}, []float64{Energy(layer, x), wantU, wantV}, 1e-14)
}

// The primal results do not depend on which parameters are varied.
func TestPrimal(t *testing.T) {
	x, y := 0.3, -1.1
	px, _ := PartialXJVP(x, 1, y)
	py, _ := PartialYJVP(x, y, 1)
	fdcheck.Close(t, "primal", []float64{px, py}, []float64{PartialX(x, y), PartialY(x, y)}, 1e-15)
}
