package loops

import (
	"runtime"
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "SumSquares", F: SumSquares, JVP: SumSquaresJVP, Grad: SumSquaresGrad},
		{Name: "Backward", F: Backward, JVP: BackwardJVP, Grad: BackwardGrad},
		{Name: "Halve", F: Halve, JVP: HalveJVP, Grad: HalveGrad},
		{Name: "ExpSeries", F: ExpSeries, JVP: ExpSeriesJVP, Grad: ExpSeriesGrad},
		{Name: "Sqrt", F: Sqrt, JVP: SqrtJVP, Grad: SqrtGrad, Lo: 0.2, Hi: 3},
		{Name: "Dot", F: Dot, JVP: DotJVP, Grad: DotGrad},
		{Name: "Product", F: Product, JVP: ProductJVP, Grad: ProductGrad},
		{Name: "Weighted", F: Weighted, JVP: WeightedJVP, Grad: WeightedGrad},
		{Name: "Horner", F: Horner, JVP: HornerJVP, Grad: HornerGrad},
		{Name: "ArraySum", F: ArraySum, JVP: ArraySumJVP, Grad: ArraySumGrad},
		{Name: "PowN", F: PowN, JVP: PowNJVP, Grad: PowNGrad},
		{Name: "Harmonic", F: Harmonic, JVP: HarmonicJVP, Grad: HarmonicGrad},
		{Name: "Lower", F: Lower, JVP: LowerJVP, Grad: LowerGrad},
		{Name: "FirstLarge", F: FirstLarge, JVP: FirstLargeJVP, Grad: FirstLargeGrad},
		{Name: "SkipNegative", F: SkipNegative, JVP: SkipNegativeJVP, Grad: SkipNegativeGrad},
		{Name: "Trace2", F: Trace2, JVP: Trace2JVP, Grad: Trace2Grad, Len: 9},
		{Name: "Chebyshev", F: Chebyshev, JVP: ChebyshevJVP, Grad: ChebyshevGrad},
		{Name: "Packed", F: Packed, JVP: PackedJVP, Grad: PackedGrad, Len: 6},
		{Name: "RangeConst", F: RangeConst, JVP: RangeConstJVP, Grad: RangeConstGrad, Len: 6},
		{Name: "RangeConstNested", F: RangeConstNested, JVP: RangeConstNestedJVP, Grad: RangeConstNestedGrad, Len: 9},
		{Name: "Pairs", F: Pairs, JVP: PairsJVP, Grad: PairsGrad, Len: 5},
		{Name: "Residuals", F: Residuals, JVP: ResidualsJVP, Grad: ResidualsGrad, Len: 5},
		{Name: "Rare", F: Rare, JVP: RareJVP, Grad: RareGrad, Len: 5, Lo: -2, Hi: 2},
	})
}

// TestTapeGrowsOnce: Pairs's and Residuals's gradients reserve their
// tapes for both of their loops before the outer one runs, so they
// allocate once whatever the length of x (the runtime counts some large
// allocations twice); growing the tape by append in the inner loop
// allocates a dozen times and more.
func TestTapeGrowsOnce(t *testing.T) {
	for _, c := range []struct {
		name string
		grad func(x, xBar []float64) float64
	}{{"Pairs", PairsGrad}, {"Residuals", ResidualsGrad}} {
		for _, n := range []int{10, 100, 300} {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(i%7) / 7
			}
			g := make([]float64, n)
			if got := testing.AllocsPerRun(3, func() { c.grad(x, g) }); got > 2 {
				t.Errorf("%s, n=%d: the gradient allocates %v times, want at most 2 (its tape)", c.name, n, got)
			}
		}
	}
}

// TestRareReservesLittle: RareGrad, whose inner loop runs for no element
// here, allocates about what it records (a few values per element), not
// its loops' trip counts multiplied (72 MB at n = 3000).
func TestRareReservesLittle(t *testing.T) {
	n := 3000
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i%7) / 7
	}
	g := make([]float64, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	RareGrad(x, g)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("RareGrad allocated %d bytes, want less than 1 MiB", got)
	}
}
