package tensorops_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// TestScaleIsDiagProduct checks ScaleRows and ScaleCols against the
// products they replace, MatMul(Diag(v), a) and MatMul(a, Diag(v)), in
// both dtypes: equal, since each element of the product is one nonzero
// product plus zeros.
func TestScaleIsDiagProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for _, shape := range [][]int{{5}, {5, 3}, {2, 5, 3}, {3, 1, 5, 2}} {
			rows := shape[max(len(shape)-2, 0)]
			a := T.RandN(rng, dt, shape...)
			v := T.RandN(rng, dt, rows)
			name := fmt.Sprintf("%v %v", dt, shape)
			if d := T.MaxAbsDiff(T.ScaleRows(v, a), T.MatMul(T.Diag(v), a)); d != 0 {
				t.Errorf("%s: ScaleRows differs from MatMul(Diag(v), a) by %v", name, d)
			}
			cols := shape[len(shape)-1]
			w := T.RandN(rng, dt, cols)
			if d := T.MaxAbsDiff(T.ScaleCols(a, w), T.MatMul(a, T.Diag(w))); d != 0 {
				t.Errorf("%s: ScaleCols differs from MatMul(a, Diag(v)) by %v", name, d)
			}
			// The adjoint in v: ⟨ScaleRows(v, a), g⟩ = ⟨v, ScaleRowsGradV(g, a)⟩.
			g := T.RandN(rng, dt, shape...)
			lhs, rhs := T.Dot(T.ScaleRows(v, a), g), T.Dot(v, T.ScaleRowsGradV(g, a))
			if !(math.Abs(lhs-rhs) <= 1e-5*(1+math.Abs(lhs))) {
				t.Errorf("%s: ⟨ScaleRows(v, a), g⟩ = %v, ⟨v, ScaleRowsGradV(g, a)⟩ = %v", name, lhs, rhs)
			}
		}
	}
}
