package arith

import (
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	away := fdcheck.Box(1, 0.5, 3) // away from the poles at 0
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Poly", F: fdcheck.Unary(Poly), JVP: fdcheck.UnaryJVP(PolyJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Ops", F: fdcheck.Binary(Ops), JVP: fdcheck.BinaryJVP(OpsJVP), Gen: fdcheck.Box(2, 0.5, 3)},
		{Name: "Ops/negative", F: fdcheck.Binary(Ops), JVP: fdcheck.BinaryJVP(OpsJVP), Gen: fdcheck.Box(2, -3, -0.5)},
		{Name: "Compound", F: fdcheck.Binary(Compound), JVP: fdcheck.BinaryJVP(CompoundJVP), Gen: fdcheck.Box(2, 0.5, 3)},
		{Name: "Neg", F: fdcheck.Unary(Neg), JVP: fdcheck.UnaryJVP(NegJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Reassign", F: fdcheck.Unary(Reassign), JVP: fdcheck.UnaryJVP(ReassignJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Swap", F: swap, JVP: swapJVP, Gen: fdcheck.Box(2, -3, 3)},
		{Name: "Quotient", F: quotient, JVP: quotientJVP, Gen: fdcheck.Box(3, 0.5, 3)},
		{Name: "Constant", F: fdcheck.Unary(Constant), JVP: fdcheck.UnaryJVP(ConstantJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Identity", F: fdcheck.Unary(Identity), JVP: fdcheck.UnaryJVP(IdentityJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Untyped", F: fdcheck.Unary(Untyped), JVP: fdcheck.UnaryJVP(UntypedJVP), Gen: away},
	})
}

// The generated functions also return the primal results, unchanged.
func TestPrimal(t *testing.T) {
	for _, p := range fdcheck.Points(1, 10, fdcheck.Box(3, 0.5, 3)) {
		x, y, z := p.X[0], p.X[1], p.X[2]
		got, _ := OpsJVP(x, 1, y, 1)
		fdcheck.Close(t, "Ops", []float64{got}, []float64{Ops(x, y)}, 1e-15)
		a, b, _, _ := SwapJVP(x, 1, y, 1)
		wa, wb := Swap(x, y)
		fdcheck.Close(t, "Swap", []float64{a, b}, []float64{wa, wb}, 1e-15)
		q, _ := QuotientJVP(x, 1, y, 1, z, 1)
		fdcheck.Close(t, "Quotient", []float64{q}, []float64{Quotient(x, y, z)}, 1e-15)
	}
	if _, d := ConstantJVP(3, 1); d != 0 {
		t.Errorf("ConstantJVP: tangent %v, want 0", d)
	}
	if _, d := IdentityJVP(3, 0.25); d != 0.25 {
		t.Errorf("IdentityJVP: tangent %v, want 0.25", d)
	}
}

func swap(x []float64) []float64 {
	a, b := Swap(x[0], x[1])
	return []float64{a, b}
}

func swapJVP(x, v []float64) []float64 {
	_, _, da, db := SwapJVP(x[0], v[0], x[1], v[1])
	return []float64{da, db}
}

func quotient(x []float64) []float64 { return []float64{Quotient(x[0], x[1], x[2])} }

func quotientJVP(x, v []float64) []float64 {
	_, d := QuotientJVP(x[0], v[0], x[1], v[1], x[2], v[2])
	return []float64{d}
}
