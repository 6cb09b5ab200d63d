package calls

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/cases/geom"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "SumSq", F: fdcheck.ScalarField(SumSq), JVP: fdcheck.ScalarFieldJVP(SumSqJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Nested", F: fdcheck.Unary(Nested), JVP: fdcheck.UnaryJVP(NestedJVP), Gen: fdcheck.Box(1, -1, 1)},
		{Name: "PolarProduct", F: fdcheck.Binary(PolarProduct), JVP: fdcheck.BinaryJVP(PolarProductJVP), Gen: fdcheck.Box(2, 0.2, 3)},
		{Name: "Powers", F: fdcheck.Unary(Powers), JVP: fdcheck.UnaryJVP(PowersJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "ScaledNorm", Gen: fdcheck.Box(5, -2, 2),
			F: func(x []float64) []float64 { return []float64{ScaledNorm(x[0], x[1:])} },
			JVP: func(x, v []float64) []float64 {
				_, d := ScaledNormJVP(x[0], v[0], x[1:], v[1:])
				return []float64{d}
			}},
		{Name: "Mixed", F: fdcheck.Unary(Mixed), JVP: fdcheck.UnaryJVP(MixedJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "Compose", F: fdcheck.Unary(Compose), JVP: fdcheck.UnaryJVP(ComposeJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "TriangleArea", F: triangleArea, JVP: triangleAreaJVP, Gen: fdcheck.Box(9, -2, 2)},
		{Name: "Angle", F: angle, JVP: angleJVP, Gen: fdcheck.Box(6, 0.2, 2)},
		{Name: "PathLength", F: fdcheck.ScalarField(PathLength), JVP: fdcheck.ScalarFieldJVP(PathLengthJVP), Gen: fdcheck.Box(12, -2, 2)},
		{Name: "UnitTangent", F: unitTangent, JVP: unitTangentJVP, Gen: fdcheck.Box(4, 0.2, 2)},
		{Name: "TriArea", F: triArea, JVP: triAreaJVP, Gen: fdcheck.Box(9, -2, 2)},
		{Name: "Midpoint", F: midpoint, JVP: midpointJVP, Gen: fdcheck.Box(6, -2, 2)},
	})
}

func TestCalleePanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "geom: length mismatch" {
			t.Errorf("recovered %v, want geom's panic", r)
		}
	}()
	UnitTangentJVP(make([]float64, 2), make([]float64, 2), []float64{1, 2, 3}, []float64{1, 0, 0})
}

func vec(x []float64) geom.Vec3 { return geom.Vec3{X: x[0], Y: x[1], Z: x[2]} }

func triangleArea(x []float64) []float64 {
	return []float64{TriangleArea(vec(x), vec(x[3:]), vec(x[6:]))}
}

func triangleAreaJVP(x, v []float64) []float64 {
	_, d := TriangleAreaJVP(vec(x), vec(v), vec(x[3:]), vec(v[3:]), vec(x[6:]), vec(v[6:]))
	return []float64{d}
}

func angle(x []float64) []float64 { return []float64{Angle(vec(x), vec(x[3:]))} }

func angleJVP(x, v []float64) []float64 {
	_, d := AngleJVP(vec(x), vec(v), vec(x[3:]), vec(v[3:]))
	return []float64{d}
}

func unitTangent(x []float64) []float64 {
	dst := make([]float64, len(x))
	UnitTangent(dst, x)
	return dst
}

func unitTangentJVP(x, v []float64) []float64 {
	dst, ddst := make([]float64, len(x)), make([]float64, len(x))
	UnitTangentJVP(dst, ddst, x, v)
	return ddst
}

func triangle(x []float64) *geom.Triangle {
	return &geom.Triangle{A: vec(x), B: vec(x[3:]), C: vec(x[6:])}
}

func triArea(x []float64) []float64 { return []float64{TriArea(triangle(x))} }

func triAreaJVP(x, v []float64) []float64 {
	_, d := TriAreaJVP(triangle(x), triangle(v))
	return []float64{d}
}

func midpoint(x []float64) []float64 {
	m := Midpoint(vec(x), vec(x[3:]))
	return []float64{m.X, m.Y, m.Z}
}

func midpointJVP(x, v []float64) []float64 {
	_, d := MidpointJVP(vec(x), vec(v), vec(x[3:]), vec(v[3:]))
	return []float64{d.X, d.Y, d.Z}
}
