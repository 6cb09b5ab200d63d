// This file defines the rules of the tensor runtime's in-place
// accumulations, which reverse mode emits to add adjoints into gradient
// buffers: tensorops.Accumulate(dst, g) adds g into dst's elements and
// returns dst (a copy of g for a nil dst), and its fused forms add a
// product or a sum without the intermediate tensor.

package templates

import "go/types"

// inPlaceRules are the rules of the in-place accumulations. They are not
// primitives (not in All): a call writes into its first argument, so the
// optimizer must keep, not merge, move or drop it, and reverse mode must
// not evaluate it again. Forward and Taylor mode differentiate the value
// it returns, dst + g (+ the fused product), by these maps: the tangent of
// a gradient (the JVP of a gradient, in a Hessian-vector product) adds the
// tangents as values. g has dst's shape wherever reverse mode accumulates.
var inPlaceRules = []*Rule{
	{Pkg: TensorPkg, Name: "Accumulate", Params: []string{"dst", "g"}, Results: []string{"r"}, Kind: Smooth,
		Tangent: []string{"ddst", "dg"}, Series: Linear, Math: "r = dst + g"},
	{Pkg: TensorPkg, Name: "AccumulateSumLike", Params: []string{"dst", "g", "like"}, Results: []string{"r"}, Kind: Smooth,
		Tangent: []string{"ddst", "tensorops.SumLike(dg, like)", "0"}, Series: Linear, Math: "r = dst + SumLike(g, like)"},
	// dst + MatMulGradA(g, a, b): linear in dst, bilinear in (g, b).
	{Pkg: TensorPkg, Name: "AccumulateMatMulGradA", Params: []string{"dst", "g", "a", "b", "transA", "transB"}, Results: []string{"r"}, Kind: Smooth,
		Tangent: []string{"ddst", "tensorops.MatMulGradA(dg, a, b, transA, transB)", "0", "tensorops.MatMulGradA(g, a, db, transA, transB)", "", ""},
		Expand:  "dst + tensorops.MatMulGradA(g, a, b, transA, transB)", Math: "r = dst + MatMulGradA(g, a, b, transA, transB)"},
	// dst + MatMulGradB(g, a, b): linear in dst, bilinear in (g, a).
	{Pkg: TensorPkg, Name: "AccumulateMatMulGradB", Params: []string{"dst", "g", "a", "b", "transA", "transB"}, Results: []string{"r"}, Kind: Smooth,
		Tangent: []string{"ddst", "tensorops.MatMulGradB(dg, a, b, transA, transB)", "tensorops.MatMulGradB(g, da, b, transA, transB)", "0", "", ""},
		Expand:  "dst + tensorops.MatMulGradB(g, a, b, transA, transB)", Math: "r = dst + MatMulGradB(g, a, b, transA, transB)"},
}

var inPlaceByName = index(inPlaceRules)

// InPlace returns the rule of fn when it is one of the tensor runtime's
// in-place accumulations (tensorops.Accumulate, AccumulateSumLike,
// AccumulateMatMulGradA, AccumulateMatMulGradB), by which forward and
// Taylor mode differentiate the value it returns; nil otherwise. These
// functions are not primitives (LookupFunc does not find them): they
// write into their first argument.
func InPlace(fn *types.Func) *Rule {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != TensorPkg || fn.Signature().Recv() != nil {
		return nil
	}
	return inPlaceByName[key(TensorPkg, fn.Name())]
}
