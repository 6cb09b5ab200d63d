package tensorrewrites

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// algebraPatterns lists, for each rewrite of algebra.go, a pattern of the
// code before it (in the opt=0 derivatives, not in the optimized ones:
// gone) or after it (the other way round: made), and the derivatives
// that show it.
var algebraPatterns = []struct {
	rule, pattern string
	gone          bool
	funcs         []string
}{
	{"diag-rows", "tensorops.Diag(", true, []string{"DiagRowsJVP", "DiagRowsGrad"}},
	{"diag-rows", "tensorops.ScaleRows(", false, []string{"DiagRowsJVP", "DiagRowsGrad"}},
	{"diag-cols", "tensorops.Diag(", true, []string{"DiagColsJVP", "DiagColsGrad"}},
	{"diag-cols", "tensorops.ScaleCols(", false, []string{"DiagColsJVP", "DiagColsGrad"}},
	{"pad-mul", "tensorops.SliceLike(", false, []string{"PadMulJVP", "PadMulGrad"}},
	{"squeeze-unsqueeze", "tensorops.Unsqueeze(", true, []string{"ReshapesJVP", "ReshapesGrad"}},
	{"transpose-elementwise, transpose-transpose", "tensorops.Transpose", true, []string{"TransposesJVP", "TransposesGrad"}},
	{"transpose-elementwise, transposed-gemm-operand", "tensorops.Transpose", true, []string{"TransposeGemmJVP", "TransposeGemmGrad"}},
	{"transposed-gemm-operand", "tensorops.MatMulT(", false, []string{"TransposeGemmJVP", "TransposeGemmGrad"}},
	{"sum-broadcast, mean-broadcast", "tensorops.Broadcast", true, []string{"SumBroadcastJVP", "SumBroadcastGrad"}},
	{"sum-broadcast", "tensorops.RepeatsShape(", false, []string{"SumBroadcastJVP", "SumBroadcastGrad"}},
	{"sumlike-full", "tensorops.SumLike(", true, []string{"BiasSumGrad"}},
	{"sumlike-full", "tensorops.SumLikeFull(", false, []string{"BiasSumGrad"}},
	{"sumlike-broadcast", "tensorops.BroadcastLike(", true, []string{"SumLikeOfJVP", "SumLikeOfGrad"}},
	{"sumlike-broadcast", "tensorops.Repeats(", false, []string{"SumLikeOfJVP", "SumLikeOfGrad"}},
	{"sum-full", "tensorops.FullLike(", true, []string{"FullSumJVP", "FullSumGrad"}},
	{"sum-full", "tensorops.Size(", false, []string{"FullSumJVP", "FullSumGrad"}},
	{"fold-fill", "tensorops.Exp(", true, []string{"FoldsJVP", "FoldsGrad"}},
	{"fold-fill", "tensorops.Log(", true, []string{"FoldsJVP", "FoldsGrad"}},
	{"fold-fill", "2.718281828459045", false, []string{"FoldsJVP", "FoldsGrad"}},
	{"fold-fill", "tensorops.Full(x.DType(), 1.3862943611198906, 3, 4)", false, []string{"FoldsJVP", "FoldsGrad"}},
	{"fill-operand", "tensorops.FullLike(", true, []string{"FoldsJVP", "FoldsGrad"}},
	{"fill-operand", "tensorops.ScalarDiv(3, ", false, []string{"FoldsJVP", "FoldsGrad"}},
	{"slice-pushdown", "tensorops.Slice(", true, []string{"SliceBiasJVP", "SliceBiasGrad"}},
	{"slice-pushdown", "tensorops.SliceFor(", false, []string{"SliceBiasJVP", "SliceBiasGrad"}},
}

// TestAlgebraFires checks each pattern of algebraPatterns.
func TestAlgebraFires(t *testing.T) {
	src := bodies(t, "algebra_grad.go")
	for _, c := range algebraPatterns {
		for _, fn := range c.funcs {
			opt, o0 := src[fn], src[fn+"O0"]
			if opt == "" || o0 == "" {
				t.Fatalf("%s or %sO0 is not in algebra_grad.go", fn, fn)
			}
			before, after := o0, opt
			if !c.gone {
				before, after = opt, o0
			}
			if !strings.Contains(before, c.pattern) {
				t.Errorf("%s: %s has no %s", c.rule, map[bool]string{true: fn + "O0 (opt=0)", false: fn}[c.gone], c.pattern)
			}
			if strings.Contains(after, c.pattern) {
				t.Errorf("%s: %s has %s", c.rule, map[bool]string{true: fn, false: fn + "O0 (opt=0)"}[c.gone], c.pattern)
			}
		}
	}
	// Rewrites that leave fewer of a call than there were.
	for _, c := range []struct{ rule, pattern, fn string }{
		{"reshape-reshape", "tensorops.Reshape", "ReshapesJVP"},
		{"reshape-reshape", "tensorops.Reshape", "ReshapesGrad"},
		{"transpose-binary", "tensorops.Transpose", "TransposeSumJVP"},
		{"transpose-binary", "tensorops.Transpose", "TransposeSumGrad"},
	} {
		if n, n0 := strings.Count(src[c.fn], c.pattern), strings.Count(src[c.fn+"O0"], c.pattern); n >= n0 {
			t.Errorf("%s: %s has %d of %s, %sO0 (opt=0) %d: want fewer", c.rule, c.fn, n, c.pattern, c.fn, n0)
		}
	}
}

// algebraCase is a function of algebra.go and the configurations of its
// arguments: shapes of the tensors (nil for a float64).
type algebraCase struct {
	name                   string
	jvp, jvp0, grad, grad0 any
	shapes                 [][][]int
}

var algebraCases = []algebraCase{
	{"DiagRows", DiagRowsJVP, DiagRowsJVPO0, DiagRowsGrad, DiagRowsGradO0,
		[][][]int{{{3}, {3}}, {{3}, {3, 4}}, {{3}, {2, 3, 4}}}},
	{"DiagCols", DiagColsJVP, DiagColsJVPO0, DiagColsGrad, DiagColsGradO0,
		[][][]int{{{4}, {4}}, {{3, 4}, {4}}, {{2, 3, 4}, {4}}}},
	{"PadMul", PadMulJVP, PadMulJVPO0, PadMulGrad, PadMulGradO0, [][][]int{{{3, 4}}, {{2, 3, 4}}}},
	{"Reshapes", ReshapesJVP, ReshapesJVPO0, ReshapesGrad, ReshapesGradO0,
		[][][]int{{{3, 4}, {4, 3}}, {{12}, {4, 3}}, {{2, 2, 3}, {4, 3}}}},
	{"Transposes", TransposesJVP, TransposesJVPO0, TransposesGrad, TransposesGradO0, [][][]int{{{3, 4}, {3, 4}}}},
	{"TransposeGemm", TransposeGemmJVP, TransposeGemmJVPO0, TransposeGemmGrad, TransposeGemmGradO0,
		[][][]int{{{4, 3}, {4, 5}}}},
	{"TransposeSum", TransposeSumJVP, TransposeSumJVPO0, TransposeSumGrad, TransposeSumGradO0,
		[][][]int{{{3, 4}, {3, 4}, {4, 3}}, {{3, 4}, {3, 1}, {4, 3}}, {{1, 4}, {3, 1}, {4, 3}}}},
	{"SumBroadcast", SumBroadcastJVP, SumBroadcastJVPO0, SumBroadcastGrad, SumBroadcastGradO0,
		[][][]int{{{4}, {3, 4}}, {{3, 1}, {3, 4}}, {{1, 4}, {3, 4}}, {{}, {3, 4}}}},
	{"BiasSum", nil, nil, BiasSumGrad, BiasSumGradO0, [][][]int{{{3, 4}, {4}}, {{3, 4}, {3, 1}}, {{3, 4}, {3, 4}}, {{4}, {3, 4}}}},
	{"SumLikeOf", SumLikeOfJVP, SumLikeOfJVPO0, SumLikeOfGrad, SumLikeOfGradO0,
		[][][]int{{{4}, {3, 4}}, {{3, 1}, {3, 4}}, {{3, 4}, {2, 3, 4}}, {{3, 4}, {3, 4}}}},
	{"FullSum", FullSumJVP, FullSumJVPO0, FullSumGrad, FullSumGradO0, [][][]int{{{3, 4}, nil}, {{5}, nil}}},
	{"Folds", FoldsJVP, FoldsJVPO0, FoldsGrad, FoldsGradO0, [][][]int{{{3, 4}}}},
	{"SliceBias", SliceBiasJVP, SliceBiasJVPO0, SliceBiasGrad, SliceBiasGradO0,
		[][][]int{{{3, 4}, {4}}, {{3, 4}, {3, 1}}, {{3, 4}, {3, 4}}, {{3, 4}, {1, 1}}, {{3, 4}, {}}}},
}

// TestAlgebraExact checks that the optimized derivatives of algebra.go
// compute what the opt=0 ones do, up to rounding, in float64 and float32,
// for each configuration of shapes (the runtime forms the rewrites call
// dispatch on them).
func TestAlgebraExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for _, c := range algebraCases {
		for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
			tol := 1e-12
			if dt == tensorops.Float32 {
				tol = 2e-5
			}
			for _, shapes := range c.shapes {
				name := fmt.Sprintf("%s %v %v", c.name, dt, shapes)
				var primal, tangents []reflect.Value
				for _, s := range shapes {
					if s == nil {
						primal = append(primal, reflect.ValueOf(rng.Float64()*2-1))
						tangents = append(tangents, reflect.ValueOf(rng.Float64()*2-1))
						continue
					}
					primal = append(primal, reflect.ValueOf(tensorops.RandU(rng, dt, -1, 1, s...)))
					tangents = append(tangents, reflect.ValueOf(tensorops.RandU(rng, dt, -1, 1, s...)))
				}
				if c.jvp != nil {
					var args []reflect.Value
					for i := range primal {
						args = append(args, primal[i], tangents[i])
					}
					compareCalls(t, name+" JVP", c.jvp, c.jvp0, args, tol)
				}
				compareCalls(t, name+" Grad", c.grad, c.grad0, primal, tol)
			}
		}
	}
}

// compareCalls calls fn and fn0 with args and compares their results:
// float64s and tensors, within tol relative to 1 + the largest magnitude.
func compareCalls(t *testing.T, what string, fn, fn0 any, args []reflect.Value, tol float64) {
	t.Helper()
	got, want := reflect.ValueOf(fn).Call(args), reflect.ValueOf(fn0).Call(args)
	for i := range got {
		switch g := got[i].Interface().(type) {
		case float64:
			w := want[i].Interface().(float64)
			if math.Abs(g-w) > tol*(1+math.Abs(w)) || math.IsNaN(g) != math.IsNaN(w) {
				t.Errorf("%s: result %d: optimized %v, opt=0 %v", what, i, g, w)
			}
		case *tensorops.Tensor:
			w := want[i].Interface().(*tensorops.Tensor)
			if g == nil || w == nil {
				if g != w && (g == nil && tensorops.MaxAll(tensorops.Abs(w)) != 0 || w == nil && tensorops.MaxAll(tensorops.Abs(g)) != 0) {
					t.Errorf("%s: result %d: optimized %v, opt=0 %v", what, i, g, w)
				}
				continue
			}
			if !g.SameShape(w) {
				t.Errorf("%s: result %d: optimized shape %v, opt=0 %v", what, i, g.Shape(), w.Shape())
				continue
			}
			if d := tensorops.MaxAbsDiff(g, w); !(d <= tol*(1+tensorops.MaxAll(tensorops.Abs(w)))) {
				t.Errorf("%s: result %d: optimized and opt=0 differ by %v", what, i, d)
			}
		}
	}
}

// TestFoldsExact checks that folding computes what the kernels compute:
// the value of Folds, whose optimized form multiplies by the folded
// constants, is bit-identical to the opt=0 one in float64 and float32
// (the products, and the sums in their order, are the same).
func TestFoldsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
		for range 5 {
			x := tensorops.RandU(rng, dt, -3, 3, 3, 4)
			f, _ := FoldsGrad(x)
			f0, _ := FoldsGradO0(x)
			if f != f0 {
				t.Errorf("Folds %v: optimized %v, opt=0 %v: not bit-identical", dt, f, f0)
			}
		}
	}
}
