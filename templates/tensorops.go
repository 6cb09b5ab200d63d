// This file defines the rules of the tensor runtime, package tensorops:
// one entry per operation, like package math's. Elementwise operations
// give Partials, as math's functions do (with tensors for their values:
// products are elementwise, and reverse mode sums an adjoint back over the
// axes an operand was broadcast along); the others give their derivative
// as linear maps (Tangent, Adjoint) and say how Taylor mode expands them
// (Series). Rules name the runtime's functions as tensorops.F; gadgen does
// not import the runtime, so a test of generated code checks each rule
// against it (the end-to-end case internal/e2e/cases/tensorrules).

package templates

import "fmt"

// TensorPkg is the import path of gadgen's tensor runtime.
const TensorPkg = "github.com/gadgen/gadgen/tensorops"

// ReleaseFunc is the runtime's function to which generated derivatives
// hand their temporaries' buffers before they return (simplify's release
// pass); it computes nothing.
const ReleaseFunc = "Release"

// elementwise returns the rule of a unary elementwise function of package
// tensorops whose derivative is partial (an expression of a and r).
func elementwise(name, partial, math string) *Rule {
	return &Rule{
		Pkg: TensorPkg, Name: name, Params: []string{"a"}, Results: []string{"r"},
		Kind: Smooth, Partials: [][]string{{partial}}, Math: math,
	}
}

// fused gives the elementwise rule r of a unary function the linear maps
// of a fused runtime kernel, jvp with %s for the tangent or adjoint: the
// first-order modes call it (one pass over the data instead of the
// partial's expression and a product), Taylor mode beyond order 1 still
// expands the partial.
func fused(r *Rule, jvp string) *Rule {
	r.Tangent = []string{fmt.Sprintf(jvp, "da")}
	r.Adjoint = []string{fmt.Sprintf(jvp, "rBar")}
	return r
}

// expanded gives the FirstOrder rule r its series: Taylor mode's
// coefficients of order k > 1 are those of expand, the function as an
// expression of other primitives (Rule.Expand).
func expanded(expand string, r *Rule) *Rule {
	r.Expand = expand
	return r
}

// linear returns the rule of a function of package tensorops given by
// linear maps.
func linear(name string, params []string, series SeriesKind, tangent, adjoint []string, math string) *Rule {
	return &Rule{
		Pkg: TensorPkg, Name: name, Params: params, Results: []string{"r"},
		Kind: Smooth, Tangent: tangent, Adjoint: adjoint, Series: series, Math: math,
	}
}

// tensorRules are the rules of package tensorops. Names follow the
// runtime's parameter names; "0" marks a parameter the result depends on
// only through its shape (like), "" one that is not differentiable.
var tensorRules = []*Rule{
	// Unary elementwise math: the scalar rules, elementwise.
	elementwise("Exp", "r", "d exp a = exp a"),
	elementwise("Log", "1 / a", "d log a = 1/a"),
	fused(elementwise("Tanh", "1 - r*r", "d tanh a = 1 − tanh² a"), "tensorops.TanhJVP(r, %s)"),
	fused(elementwise("Sigmoid", "r * (1 - r)", "d σ(a) = σ(a)(1 − σ(a))"), "tensorops.SigmoidJVP(r, %s)"),
	fused(elementwise("ReLU", "tensorops.Step(a)", "d max(a, 0) = 1 where a > 0, else 0"), "tensorops.ReLUJVP(a, %s)"),
	// The fused derivatives themselves, elementwise in both operands.
	{Pkg: TensorPkg, Name: "TanhJVP", Params: []string{"y", "dx"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"-2 * y * dx", "1 - y*y"}}, Math: "r = dx(1 − y²)"},
	{Pkg: TensorPkg, Name: "SigmoidJVP", Params: []string{"y", "dx"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"dx * (1 - 2*y)", "y * (1 - y)"}}, Math: "r = dx·y(1 − y)"},
	{Pkg: TensorPkg, Name: "ReLUJVP", Params: []string{"x", "dx"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"", "tensorops.Step(x)"}}, Math: "r = dx where x > 0, else 0"},
	// The smooth activations: the exact GELU a·Φ(a) (Φ the standard
	// normal CDF, by erf), SiLU a·σ(a) and Softplus log(1 + eᵃ), and erf.
	// Their partials are expressions of operations with rules, so Taylor
	// mode expands them to any order; GELU and SiLU have fused kernels
	// for the first order. φ(a) = e^(−a²/2)/√(2π) = 0.3989…·e^(−a²/2),
	// 2/√π = 1.1283…, 1/√2 = 0.7071….
	fused(elementwise("GELU",
		"0.5 + 0.5*tensorops.Erf(0.7071067811865476*a) + 0.3989422804014327*a*tensorops.Exp(-0.5*a*a)",
		"d a·Φ(a) = Φ(a) + a·φ(a), Φ(a) = (1 + erf(a/√2))/2"), "tensorops.GELUJVP(a, %s)"),
	fused(elementwise("SiLU", "tensorops.Sigmoid(a) * (1 + a*(1-tensorops.Sigmoid(a)))",
		"d a·σ(a) = σ(a)·(1 + a·(1 − σ(a)))"), "tensorops.SiLUJVP(a, %s)"),
	elementwise("Softplus", "tensorops.Sigmoid(a)", "d log(1 + eᵃ) = σ(a)"),
	elementwise("Erf", "1.1283791670955126 * tensorops.Exp(-a*a)", "d erf a = 2/√π·e^(−a²)"),
	// Their fused derivatives, elementwise in both operands:
	// d/dx (Φ(x) + x·φ(x)) = φ(x)·(2 − x²); d/dx σ(x)(1 + x(1 − σ(x))) =
	// σ(x)(1 − σ(x))(2 + x(1 − 2σ(x))).
	{Pkg: TensorPkg, Name: "GELUJVP", Params: []string{"x", "dx"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"dx * 0.3989422804014327*tensorops.Exp(-0.5*x*x) * (2 - x*x)",
			"0.5 + 0.5*tensorops.Erf(0.7071067811865476*x) + 0.3989422804014327*x*tensorops.Exp(-0.5*x*x)"}},
		Math: "r = dx·(Φ(x) + x·φ(x))"},
	{Pkg: TensorPkg, Name: "SiLUJVP", Params: []string{"x", "dx"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"dx * tensorops.Sigmoid(x) * (1 - tensorops.Sigmoid(x)) * (2 + x*(1-2*tensorops.Sigmoid(x)))",
			"tensorops.Sigmoid(x) * (1 + x*(1-tensorops.Sigmoid(x)))"}},
		Math: "r = dx·σ(x)·(1 + x·(1 − σ(x)))"},
	elementwise("Sqrt", "0.5 / r", "d √a = 1/(2√a)"),
	elementwise("Abs", "tensorops.Sign(a)", "d |a| = sign a"),
	elementwise("Square", "2 * a", "d a² = 2a"),
	elementwise("Sin", "tensorops.Cos(a)", "d sin a = cos a"),
	elementwise("Cos", "-tensorops.Sin(a)", "d cos a = −sin a"),
	elementwise("Log1p", "1 / (1 + a)", "d log(1+a) = 1/(1+a)"),
	elementwise("Expm1", "r + 1", "d (exp a − 1) = exp a"),
	{Pkg: TensorPkg, Name: "Sign", Params: []string{"a"}, Results: []string{"r"}, Kind: PiecewiseConstant},
	{Pkg: TensorPkg, Name: "Step", Params: []string{"a"}, Results: []string{"r"}, Kind: PiecewiseConstant},
	linear("Neg", []string{"a"}, Linear, []string{"tensorops.Neg(da)"}, []string{"tensorops.Neg(rBar)"}, "d(−a) = −da"),

	// Elementwise binary operations, broadcasting: reverse mode sums each
	// operand's adjoint back to its shape (tensorops.SumLike).
	{Pkg: TensorPkg, Name: "Add", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1", "1"}}, Math: "d(a+b) = da + db"},
	{Pkg: TensorPkg, Name: "Sub", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1", "-1"}}, Math: "d(a−b) = da − db"},
	{Pkg: TensorPkg, Name: "Mul", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"b", "a"}}, Math: "d(a⊙b) = b⊙da + a⊙db"},
	{Pkg: TensorPkg, Name: "Div", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1 / b", "-r / b"}}, Math: "d(a/b) = da/b − (a/b)·db/b"},
	{Pkg: TensorPkg, Name: "Pow", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"b * tensorops.Pow(a, b - 1)", "r * tensorops.Log(a)"}},
		Math:     "d aᵇ = b·aᵇ⁻¹·da + aᵇ·log a·db", Note: "a > 0 where b is varied"},
	{Pkg: TensorPkg, Name: "Maximum", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"0.5 + 0.5*tensorops.Sign(a - b)", "0.5 - 0.5*tensorops.Sign(a - b)"}},
		Math:     "d max(a, b) = da where a > b, db where a < b", Note: "ties: half to each"},
	{Pkg: TensorPkg, Name: "Minimum", Params: []string{"a", "b"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"0.5 - 0.5*tensorops.Sign(a - b)", "0.5 + 0.5*tensorops.Sign(a - b)"}},
		Math:     "d min(a, b) = da where a < b, db where a > b", Note: "ties: half to each"},

	// A tensor and a float64.
	{Pkg: TensorPkg, Name: "Scale", Params: []string{"a", "s"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"s", "a"}}, Math: "d(s·a) = s·da + a·ds"},
	{Pkg: TensorPkg, Name: "AddScalar", Params: []string{"a", "s"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1", "1"}}, Math: "d(a+s) = da + ds"},
	{Pkg: TensorPkg, Name: "Affine", Params: []string{"a", "scale", "shift"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"scale", "a", "1"}}, Math: "d(scale·a + shift) = scale·da + a·dscale + dshift"},
	{Pkg: TensorPkg, Name: "ScalarDiv", Params: []string{"s", "a"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"1 / a", "-r / a"}}, Math: "d(s/a) = ds/a − (s/a)·da/a"},
	{Pkg: TensorPkg, Name: "PowScalar", Params: []string{"a", "p"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"p * tensorops.PowScalar(a, p - 1)", "r * tensorops.Log(a)"}},
		Math:     "d aᵖ = p·aᵖ⁻¹·da + aᵖ·log a·dp", Note: "a > 0 where p is varied"},

	// Products.
	linear("MatMul", []string{"a", "b"}, Bilinear,
		[]string{"tensorops.MatMul(da, b)", "tensorops.MatMul(a, db)"},
		[]string{"tensorops.MatMulGradA(rBar, a, b, false, false)", "tensorops.MatMulGradB(rBar, a, b, false, false)"},
		"d(a·b) = da·b + a·db; ā += r̄·bᵀ, b̄ += aᵀ·r̄"),
	linear("MatMulT", []string{"a", "b", "transA", "transB"}, Bilinear,
		[]string{"tensorops.MatMulT(da, b, transA, transB)", "tensorops.MatMulT(a, db, transA, transB)", "", ""},
		[]string{"tensorops.MatMulGradA(rBar, a, b, transA, transB)", "tensorops.MatMulGradB(rBar, a, b, transA, transB)", "", ""},
		"d(op(a)·op(b)) = op(da)·op(b) + op(a)·op(db)"),
	// MatMulGradA(g, a, b) = Lᵀ(g) for L(a) = op(a)·op(b): bilinear in g
	// and b; its transpose in g is L, in b MatMulGradB with ā for a.
	linear("MatMulGradA", []string{"g", "a", "b", "transA", "transB"}, Bilinear,
		[]string{"tensorops.MatMulGradA(dg, a, b, transA, transB)", "0", "tensorops.MatMulGradA(g, a, db, transA, transB)", "", ""},
		[]string{"tensorops.MatMulT(rBar, b, transA, transB)", "0", "tensorops.MatMulGradB(g, rBar, b, transA, transB)", "", ""},
		"the adjoint of a ↦ op(a)·op(b), bilinear in (g, b)"),
	linear("MatMulGradB", []string{"g", "a", "b", "transA", "transB"}, Bilinear,
		[]string{"tensorops.MatMulGradB(dg, a, b, transA, transB)", "tensorops.MatMulGradB(g, da, b, transA, transB)", "0", "", ""},
		[]string{"tensorops.MatMulT(a, rBar, transA, transB)", "tensorops.MatMulGradA(g, a, rBar, transA, transB)", "0", "", ""},
		"the adjoint of b ↦ op(a)·op(b), bilinear in (g, a)"),
	// Products by a diagonal matrix, which the tensor rewrites compute as
	// scalings: ScaleRows(v, a) = diag(v)·a, ScaleCols(a, v) = a·diag(v),
	// bilinear. The adjoint in v of ScaleRows sums r̄⊙a over every axis
	// but a's rows (ScaleRowsGradV); that of ScaleCols over every axis but
	// the last (SumLike to v).
	linear("ScaleRows", []string{"v", "a"}, Bilinear,
		[]string{"tensorops.ScaleRows(dv, a)", "tensorops.ScaleRows(v, da)"},
		[]string{"tensorops.ScaleRowsGradV(rBar, a)", "tensorops.ScaleRows(v, rBar)"},
		"d(diag(v)·a) = diag(dv)·a + diag(v)·da; v̄ += Σ r̄⊙a but along the rows, ā += diag(v)·r̄"),
	// ScaleRowsGradV(g, a) = Σ g⊙a but along a's rows: bilinear in
	// (g, a), its transpose in g is w ↦ ScaleRows(w, a), in a
	// w ↦ ScaleRows(w, g).
	linear("ScaleRowsGradV", []string{"g", "a"}, Bilinear,
		[]string{"tensorops.ScaleRowsGradV(dg, a)", "tensorops.ScaleRowsGradV(g, da)"},
		[]string{"tensorops.ScaleRows(rBar, a)", "tensorops.ScaleRows(rBar, g)"},
		"the adjoint in v of diag(v)·a, bilinear in (g, a)"),
	linear("ScaleCols", []string{"a", "v"}, Bilinear,
		[]string{"tensorops.ScaleCols(da, v)", "tensorops.ScaleCols(a, dv)"},
		[]string{"tensorops.ScaleCols(rBar, v)", "tensorops.SumLike(rBar * a, v)"},
		"d(a·diag(v)) = da·diag(v) + a·diag(dv); ā += r̄·diag(v), v̄ += Σ r̄⊙a but along the last axis"),
	linear("Dot", []string{"a", "b"}, Bilinear,
		[]string{"tensorops.Dot(da, b)", "tensorops.Dot(a, db)"},
		[]string{"tensorops.Scale(b, rBar)", "tensorops.Scale(a, rBar)"},
		"d⟨a, b⟩ = ⟨da, b⟩ + ⟨a, db⟩"),
	linear("Outer", []string{"a", "b"}, Bilinear,
		[]string{"tensorops.Outer(da, b)", "tensorops.Outer(a, db)"},
		[]string{"tensorops.MatMul(rBar, b)", "tensorops.MatMul(a, rBar)"},
		"d(a bᵀ) = da bᵀ + a dbᵀ; ā += r̄ b, b̄ += r̄ᵀ a"),

	// Conv2D(x, w) is bilinear; its two adjoints are the transposes of
	// x ↦ Conv2D(x, w) and w ↦ Conv2D(x, w), bilinear in turn.
	linear("Conv2D", []string{"x", "w", "stride", "pad"}, Bilinear,
		[]string{"tensorops.Conv2D(dx, w, stride, pad)", "tensorops.Conv2D(x, dw, stride, pad)", "", ""},
		[]string{"tensorops.Conv2DGradX(rBar, x, w, stride, pad)", "tensorops.Conv2DGradW(rBar, x, w, stride, pad)", "", ""},
		"d conv(x, w) = conv(dx, w) + conv(x, dw)"),
	linear("Conv2DGradX", []string{"g", "x", "w", "stride", "pad"}, Bilinear,
		[]string{"tensorops.Conv2DGradX(dg, x, w, stride, pad)", "0", "tensorops.Conv2DGradX(g, x, dw, stride, pad)", "", ""},
		[]string{"tensorops.Conv2D(rBar, w, stride, pad)", "0", "tensorops.Conv2DGradW(g, rBar, w, stride, pad)", "", ""},
		"the adjoint of x ↦ conv(x, w), bilinear in (g, w)"),
	linear("Conv2DGradW", []string{"g", "x", "w", "stride", "pad"}, Bilinear,
		[]string{"tensorops.Conv2DGradW(dg, x, w, stride, pad)", "tensorops.Conv2DGradW(g, dx, w, stride, pad)", "0", "", ""},
		[]string{"tensorops.Conv2D(x, rBar, stride, pad)", "tensorops.Conv2DGradX(g, x, rBar, stride, pad)", "0", "", ""},
		"the adjoint of w ↦ conv(x, w), bilinear in (g, x)"),

	// Conv2DDilated is Conv2D with dilated filters: bilinear in the same
	// way, its adjoints the transposes of x ↦ conv(x, w) and w ↦ conv(x,
	// w) with the same dilation.
	linear("Conv2DDilated", []string{"x", "w", "stride", "pad", "dilation"}, Bilinear,
		[]string{"tensorops.Conv2DDilated(dx, w, stride, pad, dilation)", "tensorops.Conv2DDilated(x, dw, stride, pad, dilation)", "", "", ""},
		[]string{"tensorops.Conv2DDilatedGradX(rBar, x, w, stride, pad, dilation)", "tensorops.Conv2DDilatedGradW(rBar, x, w, stride, pad, dilation)", "", "", ""},
		"d conv(x, w) = conv(dx, w) + conv(x, dw), with dilated filters"),
	linear("Conv2DDilatedGradX", []string{"g", "x", "w", "stride", "pad", "dilation"}, Bilinear,
		[]string{"tensorops.Conv2DDilatedGradX(dg, x, w, stride, pad, dilation)", "0", "tensorops.Conv2DDilatedGradX(g, x, dw, stride, pad, dilation)", "", "", ""},
		[]string{"tensorops.Conv2DDilated(rBar, w, stride, pad, dilation)", "0", "tensorops.Conv2DDilatedGradW(g, rBar, w, stride, pad, dilation)", "", "", ""},
		"the adjoint of x ↦ conv(x, w), bilinear in (g, w)"),
	linear("Conv2DDilatedGradW", []string{"g", "x", "w", "stride", "pad", "dilation"}, Bilinear,
		[]string{"tensorops.Conv2DDilatedGradW(dg, x, w, stride, pad, dilation)", "tensorops.Conv2DDilatedGradW(g, dx, w, stride, pad, dilation)", "0", "", "", ""},
		[]string{"tensorops.Conv2DDilated(x, rBar, stride, pad, dilation)", "tensorops.Conv2DDilatedGradX(g, x, rBar, stride, pad, dilation)", "0", "", "", ""},
		"the adjoint of w ↦ conv(x, w), bilinear in (g, x)"),

	// Pooling. MaxPool2D takes in each window the element at its (first)
	// maximum: linear in x with the choice fixed by the primal (as Max),
	// so its Taylor coefficients are MaxPool2DJVP of x's; its helpers
	// gather at the maxima (MaxPool2DJVP) and scatter-add to them
	// (MaxPool2DGrad), each the other's transpose, and depend on x only
	// through the choice. AvgPool2D is linear; AvgPool2DGrad spreads
	// each element of g/size² over its window, and is its transpose.
	linear("MaxPool2D", []string{"x", "size", "stride", "pad"}, Linear,
		[]string{"tensorops.MaxPool2DJVP(x, dx, size, stride, pad)", "", "", ""},
		[]string{"tensorops.MaxPool2DGrad(x, rBar, size, stride, pad)", "", "", ""},
		"d maxpool x = dx at each window's (first) maximum; x̄ += r̄ added at the maxima"),
	linear("MaxPool2DJVP", []string{"x", "dx", "size", "stride", "pad"}, Linear,
		[]string{"0", "tensorops.MaxPool2DJVP(x, ddx, size, stride, pad)", "", "", ""},
		[]string{"0", "tensorops.MaxPool2DGrad(x, rBar, size, stride, pad)", "", "", ""},
		"gather at the windows' maxima; its transpose scatters"),
	linear("MaxPool2DGrad", []string{"x", "g", "size", "stride", "pad"}, Linear,
		[]string{"0", "tensorops.MaxPool2DGrad(x, dg, size, stride, pad)", "", "", ""},
		[]string{"0", "tensorops.MaxPool2DJVP(x, rBar, size, stride, pad)", "", "", ""},
		"scatter-add to the windows' maxima; its transpose gathers"),
	linear("AvgPool2D", []string{"x", "size", "stride", "pad"}, Linear,
		[]string{"tensorops.AvgPool2D(dx, size, stride, pad)", "", "", ""},
		[]string{"tensorops.AvgPool2DGrad(rBar, x, size, stride, pad)", "", "", ""},
		"average pooling is linear; its transpose spreads r̄/size² over each window"),
	linear("AvgPool2DGrad", []string{"g", "x", "size", "stride", "pad"}, Linear,
		[]string{"tensorops.AvgPool2DGrad(dg, x, size, stride, pad)", "0", "", "", ""},
		[]string{"tensorops.AvgPool2D(rBar, size, stride, pad)", "0", "", "", ""},
		"spreading over the windows is linear; its transpose is the average pooling"),

	// Gathering by integer indices (not differentiated) is linear; its
	// transpose adds each slice of r̄ into zeros at its index (repeated
	// indices accumulate), and the transpose of that gathers.
	linear("Gather", []string{"a", "axis", "idx"}, Linear,
		[]string{"tensorops.Gather(da, axis, idx)", "", ""}, []string{"tensorops.GatherGrad(rBar, a, axis, idx)", "", ""},
		"d gather(a) = gather(da); ā += r̄ scatter-added at idx"),
	linear("GatherGrad", []string{"g", "like", "axis", "idx"}, Linear,
		[]string{"tensorops.GatherGrad(dg, like, axis, idx)", "0", "", ""}, []string{"tensorops.Gather(rBar, axis, idx)", "0", "", ""},
		"scatter-add into zeros; its transpose gathers"),
	linear("Embedding", []string{"table", "ids"}, Linear,
		[]string{"tensorops.Embedding(dtable, ids)", ""}, []string{"tensorops.GatherGrad(rBar, table, 0, ids)", ""},
		"the rows of table at ids: d = the rows of dtable; tablē += r̄'s rows added at ids"),

	// Reductions and their adjoints.
	linear("SumAll", []string{"a"}, Linear,
		[]string{"tensorops.SumAll(da)"}, []string{"tensorops.FullLike(a, rBar)"}, "d Σa = Σ da"),
	linear("MeanAll", []string{"a"}, Linear,
		[]string{"tensorops.MeanAll(da)"}, []string{"tensorops.MeanAllGrad(a, rBar)"}, "d mean a = mean da"),
	linear("Sum", []string{"a", "axis"}, Linear,
		[]string{"tensorops.Sum(da, axis)", ""}, []string{"tensorops.ExpandAxis(rBar, a, axis)", ""}, "d Σ_axis a = Σ_axis da"),
	linear("Mean", []string{"a", "axis"}, Linear,
		[]string{"tensorops.Mean(da, axis)", ""}, []string{"tensorops.MeanGrad(rBar, a, axis)", ""}, "d mean_axis a = mean_axis da"),
	linear("Max", []string{"a", "axis"}, Linear,
		[]string{"tensorops.MaxJVP(a, da, axis)", ""}, []string{"tensorops.MaxGrad(a, rBar, axis)", ""},
		"d max_axis a = da at the (first) maximum"),
	linear("MaxAll", []string{"a"}, Linear,
		[]string{"tensorops.MaxAllJVP(a, da)"}, []string{"tensorops.MaxAllGrad(a, rBar)"},
		"d max a = da at the (first) maximum"),
	linear("Full", []string{"dt", "v", "shape"}, Linear,
		[]string{"", "tensorops.Full(dt, dv, shape)", ""}, []string{"", "tensorops.SumAll(rBar)", ""}, "d full(v) = full(dv)"),
	linear("FullLike", []string{"t", "v"}, Linear,
		[]string{"0", "tensorops.FullLike(t, dv)"}, []string{"0", "tensorops.SumAll(rBar)"}, "d full(v) = full(dv)"),
	// SumLikeFull(w, c, like) = SumLike(FullLike(w, c), like), which the
	// tensor rewrites make of the adjoint of a sum's broadcast operand:
	// linear in c, the tensors give shapes only.
	linear("SumLikeFull", []string{"w", "c", "like"}, Linear,
		[]string{"0", "tensorops.SumLikeFull(w, dc, like)", "0"},
		[]string{"0", "tensorops.SumAll(rBar) * tensorops.Repeats(like, w)", "0"},
		"d(c·n·1) = dc·n·1 with n = Repeats(like, w); its transpose sums r̄ times n"),
	linear("ExpandAxis", []string{"g", "like", "axis"}, Linear,
		[]string{"tensorops.ExpandAxis(dg, like, axis)", "0", ""}, []string{"tensorops.Sum(rBar, axis)", "0", ""},
		"broadcast along axis; its transpose sums along it"),
	linear("MeanGrad", []string{"g", "like", "axis"}, Linear,
		[]string{"tensorops.MeanGrad(dg, like, axis)", "0", ""}, []string{"tensorops.Mean(rBar, axis)", "0", ""},
		"broadcast along axis over n; its transpose is the mean"),
	linear("MeanAllGrad", []string{"like", "g"}, Linear,
		[]string{"0", "tensorops.MeanAllGrad(like, dg)"}, []string{"0", "tensorops.MeanAll(rBar)"},
		"full of g/n; its transpose is the mean"),
	linear("MaxGrad", []string{"a", "g", "axis"}, Linear,
		[]string{"0", "tensorops.MaxGrad(a, dg, axis)", ""}, []string{"0", "tensorops.MaxJVP(a, rBar, axis)", ""},
		"scatter to the maxima; its transpose gathers"),
	linear("MaxJVP", []string{"a", "da", "axis"}, Linear,
		[]string{"0", "tensorops.MaxJVP(a, dda, axis)", ""}, []string{"0", "tensorops.MaxGrad(a, rBar, axis)", ""},
		"gather at the maxima; its transpose scatters"),
	linear("MaxAllGrad", []string{"a", "g"}, Linear,
		[]string{"0", "tensorops.MaxAllGrad(a, dg)"}, []string{"0", "tensorops.MaxAllJVP(a, rBar)"},
		"scatter to the maximum; its transpose gathers"),
	linear("MaxAllJVP", []string{"a", "da"}, Linear,
		[]string{"0", "tensorops.MaxAllJVP(a, dda)"}, []string{"0", "tensorops.MaxAllGrad(a, rBar)"},
		"gather at the maximum; its transpose scatters"),
	// The variance and the standard deviation, along an axis (Var, Std)
	// and of all elements (VarAll, StdAll), over n elements with the
	// normalization n − ddof; c = a − mean, the centred a. d var =
	// 2/(n − ddof)·Σ c⊙da (the mean's tangent drops out: Σ c = 0), whose
	// transpose is 2/(n − ddof)·c⊙E(r̄), E broadcasting along the axis;
	// d std = d var/(2·std), taken as 0 where std = 0 (Step(r), r ≥ 0,
	// is 0 there; the where of the floats). Taylor mode expands their
	// definitions.
	expanded("tensorops.Sum(tensorops.Square(a - tensorops.ExpandAxis(tensorops.Mean(a, axis), a, axis)), axis) / (tensorops.Dim(a, axis) - ddof)", linear("Var", []string{"a", "axis", "ddof"}, FirstOrder,
		[]string{"tensorops.Sum((a - tensorops.ExpandAxis(tensorops.Mean(a, axis), a, axis)) * da, axis) * 2 / (tensorops.Dim(a, axis) - ddof)", "", ""},
		[]string{"(a - tensorops.ExpandAxis(tensorops.Mean(a, axis), a, axis)) * tensorops.ExpandAxis(rBar, a, axis) * 2 / (tensorops.Dim(a, axis) - ddof)", "", ""},
		"d var_axis a = 2/(n − ddof)·Σ_axis c⊙da")),
	expanded("tensorops.Sqrt(tensorops.Var(a, axis, ddof))", linear("Std", []string{"a", "axis", "ddof"}, FirstOrder,
		[]string{"tensorops.Sum((a - tensorops.ExpandAxis(tensorops.Mean(a, axis), a, axis)) * da, axis) * tensorops.Step(r) / ((r + (1 - tensorops.Step(r))) * (tensorops.Dim(a, axis) - ddof))", "", ""},
		[]string{"(a - tensorops.ExpandAxis(tensorops.Mean(a, axis), a, axis)) * tensorops.ExpandAxis(rBar * tensorops.Step(r) / ((r + (1 - tensorops.Step(r))) * (tensorops.Dim(a, axis) - ddof)), a, axis)", "", ""},
		"d std_axis a = Σ_axis c⊙da/((n − ddof)·std), 0 where std = 0")),
	expanded("tensorops.SumAll(tensorops.Square(a - tensorops.MeanAll(a))) / (tensorops.Size(a) - ddof)", linear("VarAll", []string{"a", "ddof"}, FirstOrder,
		[]string{"2 * tensorops.SumAll((a - tensorops.MeanAll(a)) * da) / (tensorops.Size(a) - ddof)", ""},
		[]string{"(a - tensorops.MeanAll(a)) * (2 * rBar / (tensorops.Size(a) - ddof))", ""},
		"d var a = 2/(n − ddof)·Σ c⊙da")),
	expanded("math.Sqrt(tensorops.VarAll(a, ddof))", linear("StdAll", []string{"a", "ddof"}, FirstOrder,
		[]string{"where(r > 0, tensorops.SumAll((a - tensorops.MeanAll(a)) * da) / (r * (tensorops.Size(a) - ddof)), 0)", ""},
		[]string{"(a - tensorops.MeanAll(a)) * where(r > 0, rBar / (r * (tensorops.Size(a) - ddof)), 0)", ""},
		"d std a = Σ c⊙da/((n − ddof)·std), 0 where std = 0")),

	// Shapes.
	linear("Transpose", []string{"a", "perm"}, Linear,
		[]string{"tensorops.Transpose(da, perm)", ""}, []string{"tensorops.TransposeBack(rBar, perm)", ""},
		"transposition is linear; its transpose is the inverse permutation"),
	linear("TransposeBack", []string{"g", "perm"}, Linear,
		[]string{"tensorops.TransposeBack(dg, perm)", ""}, []string{"tensorops.Transpose(rBar, perm)", ""},
		"the inverse permutation; its transpose is the permutation"),
	linear("Reshape", []string{"a", "shape"}, Linear,
		[]string{"tensorops.Reshape(da, shape)", ""}, []string{"tensorops.ReshapeLike(rBar, a)", ""},
		"reshaping is linear; its transpose reshapes back"),
	linear("ReshapeLike", []string{"g", "like"}, Linear,
		[]string{"tensorops.ReshapeLike(dg, like)", "0"}, []string{"tensorops.ReshapeLike(rBar, g)", "0"},
		"reshaping is linear; its transpose reshapes back"),
	linear("Unsqueeze", []string{"a", "axis"}, Linear,
		[]string{"tensorops.Unsqueeze(da, axis)", ""}, []string{"tensorops.Squeeze(rBar, axis)", ""}, "a reshape"),
	linear("Squeeze", []string{"a", "axis"}, Linear,
		[]string{"tensorops.Squeeze(da, axis)", ""}, []string{"tensorops.Unsqueeze(rBar, axis)", ""}, "a reshape"),
	linear("Slice", []string{"a", "axis", "lo", "hi"}, Linear,
		[]string{"tensorops.Slice(da, axis, lo, hi)", "", "", ""}, []string{"tensorops.SliceGrad(rBar, a, axis, lo)", "", "", ""},
		"slicing is linear; its transpose pads with zeros"),
	linear("SliceGrad", []string{"g", "like", "axis", "lo"}, Linear,
		[]string{"tensorops.SliceGrad(dg, like, axis, lo)", "0", "", ""}, []string{"tensorops.PadGrad(rBar, g, axis, lo)", "0", "", ""},
		"padding with zeros; its transpose slices"),
	// SliceBroadcast(a, other, …): the part of a, an operand of an
	// elementwise operation with other, that a slice of the (broadcast)
	// result uses (a itself where a is broadcast along the axis);
	// SliceBroadcastGrad places it back in zeros.
	linear("SliceBroadcast", []string{"a", "other", "axis", "lo", "hi"}, Linear,
		[]string{"tensorops.SliceBroadcast(da, other, axis, lo, hi)", "0", "", "", ""},
		[]string{"tensorops.SliceBroadcastGrad(rBar, a, other, axis, lo, hi)", "0", "", "", ""},
		"slicing (or not) is linear; its transpose pads with zeros"),
	linear("SliceBroadcastGrad", []string{"g", "a", "other", "axis", "lo", "hi"}, Linear,
		[]string{"tensorops.SliceBroadcastGrad(dg, a, other, axis, lo, hi)", "0", "0", "", "", ""},
		[]string{"tensorops.SliceBroadcast(rBar, other, axis, lo, hi)", "0", "0", "", "", ""},
		"padding with zeros (or not); its transpose slices"),
	// SliceLike(y, like, axis, lo): the part of y over like in a padding
	// of like (PadGrad's slice, with like's shape, nil for a nil like).
	linear("SliceLike", []string{"y", "like", "axis", "lo"}, Linear,
		[]string{"tensorops.SliceLike(dy, like, axis, lo)", "0", "", ""}, []string{"tensorops.SliceGrad(rBar, y, axis, lo)", "0", "", ""},
		"slicing is linear; its transpose pads with zeros"),
	linear("Pad", []string{"a", "axis", "before", "after"}, Linear,
		[]string{"tensorops.Pad(da, axis, before, after)", "", "", ""}, []string{"tensorops.PadGrad(rBar, a, axis, before)", "", "", ""},
		"padding with zeros is linear; its transpose slices"),
	linear("PadGrad", []string{"g", "like", "axis", "before"}, Linear,
		[]string{"tensorops.PadGrad(dg, like, axis, before)", "0", "", ""}, []string{"tensorops.SliceGrad(rBar, g, axis, before)", "0", "", ""},
		"slicing; its transpose pads with zeros"),
	linear("AsType", []string{"a", "dt"}, Linear,
		[]string{"tensorops.AsType(da, dt)", ""}, []string{"tensorops.AsTypeLike(rBar, a)", ""},
		"conversion is linear (up to rounding); its transpose converts back"),
	linear("OrZerosLike", []string{"t", "like"}, Linear,
		[]string{"tensorops.OrZerosLike(dt, like)", "0"}, []string{"rBar", "0"},
		"the identity on t (a nil t is the zero tensor)"),
	// Views of a []float64 or []float32 as a tensor: linear in the slice,
	// whose tangent is its shadow (viewed the same way); the adjoint map
	// of a slice parameter adds into its shadow, dataBar, and returns it.
	linear("FromFloat64s", []string{"data", "shape"}, Linear,
		[]string{"tensorops.FromFloat64s(ddata, shape)", ""}, []string{"tensorops.AccumulateFloat64s(dataBar, rBar)", ""},
		"a view is linear; its transpose adds r̄'s elements into the slice's adjoint"),
	linear("FromFloat32s", []string{"data", "shape"}, Linear,
		[]string{"tensorops.FromFloat32s(ddata, shape)", ""}, []string{"tensorops.AccumulateFloat32s(dataBar, rBar)", ""},
		"a view is linear; its transpose adds r̄'s elements into the slice's adjoint"),
	// Element reads, the only ones of Tensor's methods with a derivative:
	// linear in the tensor. Clone is the identity on values.
	linear("Tensor.Item", []string{"t"}, Linear,
		[]string{"tensorops.SumAll(dt)"}, []string{"tensorops.FullLike(t, rBar)"},
		"the only element: linear; its transpose fills a tensor of t's shape"),
	linear("Tensor.At", []string{"t", "idx"}, Linear,
		[]string{"tensorops.AtJVP(dt, idx)", ""}, []string{"tensorops.AtGrad(rBar, t, idx)", ""},
		"reading an element is linear; its transpose places r̄ at idx in zeros"),
	linear("Tensor.Clone", []string{"t"}, Linear,
		[]string{"dt"}, []string{"rBar"}, "a copy: the identity on values"),
	linear("AtJVP", []string{"t", "idx"}, Linear,
		[]string{"tensorops.AtJVP(dt, idx)", ""}, []string{"tensorops.AtGrad(rBar, t, idx)", ""},
		"t.At(idx...), 0 for nil t: linear"),
	linear("AtGrad", []string{"g", "like", "idx"}, Linear,
		[]string{"tensorops.AtGrad(dg, like, idx)", "0", ""}, []string{"tensorops.AtJVP(rBar, idx)", "0", ""},
		"g placed at idx in zeros: linear in g; its transpose reads the element"),
	linear("AsTypeLike", []string{"g", "like"}, Linear,
		[]string{"tensorops.AsTypeLike(dg, like)", "0"}, []string{"tensorops.AsTypeLike(rBar, g)", "0"},
		"conversion is linear (up to rounding); its transpose converts back"),
	// Concat's variadic ts: the tangent concatenates the tangents (zeros
	// for a fixed tensor), the adjoint of ts[i] is its block of r̄.
	linear("Concat", []string{"axis", "ts"}, Linear,
		[]string{"", "tensorops.ConcatJVP(axis, ts, dts)"}, []string{"", "tensorops.ConcatGrad(rBar, axis, i, ts)"},
		"concatenation is linear; its transpose cuts r̄ into the blocks"),
	// The helpers of Concat's rule, linear in their adjoint or tangents
	// and dependent on the tensors ts only through their shapes.
	linear("ConcatGrad", []string{"g", "axis", "i", "ts"}, Linear,
		[]string{"tensorops.ConcatGrad(dg, axis, i, ts)", "", "", "0"},
		[]string{"tensorops.ConcatPlace(rBar, axis, i, ts)", "", "", "0"},
		"block i of g; its transpose places a block in zeros"),
	linear("ConcatPlace", []string{"g", "axis", "i", "ts"}, Linear,
		[]string{"tensorops.ConcatPlace(dg, axis, i, ts)", "", "", "0"},
		[]string{"tensorops.ConcatGrad(rBar, axis, i, ts)", "", "", "0"},
		"g placed in block i of zeros; its transpose takes the block"),
	linear("ConcatJVP", []string{"axis", "tsAndTangents"}, Linear,
		[]string{"", "tensorops.ConcatJVPJVP(axis, tsAndTangents, dtsAndTangents)"},
		[]string{"", "tensorops.ConcatJVPGrad(rBar, axis, i, tsAndTangents)"},
		"the tangents concatenated: linear in them, the tensors' shapes only"),
	linear("Broadcast", []string{"a", "shape"}, Linear,
		[]string{"tensorops.Broadcast(da, shape)", ""}, []string{"tensorops.SumLike(rBar, a)", ""},
		"broadcasting is linear; its transpose sums over the broadcast axes"),
	linear("BroadcastLike", []string{"a", "like"}, Linear,
		[]string{"tensorops.BroadcastLike(da, like)", "0"}, []string{"tensorops.SumLike(rBar, a)", "0"},
		"broadcasting is linear; its transpose sums over the broadcast axes"),
	linear("ExpandLike", []string{"a", "like"}, Linear,
		[]string{"tensorops.ExpandLike(da, like)", "0"}, []string{"tensorops.SumLike(rBar, a)", "0"},
		"broadcasting (a itself where no axis grows); its transpose sums over the broadcast axes"),
	linear("SumLike", []string{"g", "like"}, Linear,
		[]string{"tensorops.SumLike(dg, like)", "0"}, []string{"tensorops.BroadcastLike(rBar, g)", "0"},
		"summing over broadcast axes; its transpose broadcasts"),
	linear("Diag", []string{"v"}, Linear,
		[]string{"tensorops.Diag(dv)"}, []string{"tensorops.DiagPart(rBar)"}, "diag is linear; its transpose takes the diagonal"),
	linear("DiagPart", []string{"m"}, Linear,
		[]string{"tensorops.DiagPart(dm)"}, []string{"tensorops.Diag(rBar)"}, "the diagonal is linear; its transpose is diag"),

	// Softmax and its relatives: the first-order modes (forward, reverse,
	// the HVP) use their fused kernels; Taylor mode takes the higher
	// coefficients from Expand, written with the log-sum-exp held
	// constant as the shift (no exponential of an unshifted argument):
	// the series of Exp and Log by their recurrences, of sums and
	// broadcasts by their linear maps.
	//
	// softmax a = exp(logsoftmax a), at most 1.
	expanded("tensorops.Exp(tensorops.LogSoftmax(a, axis))", linear("Softmax", []string{"a", "axis"}, FirstOrder,
		[]string{"tensorops.SoftmaxJVP(r, da, axis)", ""}, []string{"tensorops.SoftmaxJVP(r, rBar, axis)", ""},
		"d softmax a = s⊙(da − Σ s⊙da), a symmetric map")),
	// SoftmaxJVP(s, dx) = s⊙dx − s⊙Σ(s⊙dx): linear in dx, quadratic in s.
	expanded("s * dx - s * tensorops.ExpandAxis(tensorops.Sum(s * dx, axis), s, axis)", linear("SoftmaxJVP", []string{"s", "dx", "axis"}, FirstOrder,
		[]string{
			"ds * (dx - tensorops.ExpandAxis(tensorops.Sum(s * dx, axis), s, axis)) - s * tensorops.ExpandAxis(tensorops.Sum(ds * dx, axis), s, axis)",
			"tensorops.SoftmaxJVP(s, ddx, axis)", ""},
		[]string{
			"rBar * (dx - tensorops.ExpandAxis(tensorops.Sum(s * dx, axis), s, axis)) - dx * tensorops.ExpandAxis(tensorops.Sum(rBar * s, axis), s, axis)",
			"tensorops.SoftmaxJVP(s, rBar, axis)", ""},
		"s⊙(dx − Σ s⊙dx)")),
	// logsoftmax a = a − logΣexp a.
	expanded("a - tensorops.ExpandAxis(tensorops.LogSumExp(a, axis), a, axis)", linear("LogSoftmax", []string{"a", "axis"}, FirstOrder,
		[]string{"tensorops.LogSoftmaxJVP(r, da, axis)", ""}, []string{"tensorops.LogSoftmaxVJP(r, rBar, axis)", ""},
		"d logsoftmax a = da − Σ softmax(a)⊙da")),
	// LogSoftmaxJVP(ls, dx) = dx − E(Σ s⊙dx) and LogSoftmaxVJP(ls, g) =
	// g − s⊙E(Σ g), s = exp(ls), E broadcasting along axis: each the
	// other's transpose in its second argument.
	expanded("dx - tensorops.ExpandAxis(tensorops.Sum(tensorops.Exp(ls) * dx, axis), ls, axis)", linear("LogSoftmaxJVP", []string{"ls", "dx", "axis"}, FirstOrder,
		[]string{
			"-tensorops.ExpandAxis(tensorops.Sum(tensorops.Exp(ls) * dls * dx, axis), ls, axis)",
			"tensorops.LogSoftmaxJVP(ls, ddx, axis)", ""},
		[]string{
			"-tensorops.ExpandAxis(tensorops.Sum(rBar, axis), ls, axis) * tensorops.Exp(ls) * dx",
			"tensorops.LogSoftmaxVJP(ls, rBar, axis)", ""},
		"dx − Σ softmax⊙dx")),
	expanded("g - tensorops.Exp(ls) * tensorops.ExpandAxis(tensorops.Sum(g, axis), ls, axis)", linear("LogSoftmaxVJP", []string{"ls", "g", "axis"}, FirstOrder,
		[]string{
			"-tensorops.Exp(ls) * dls * tensorops.ExpandAxis(tensorops.Sum(g, axis), ls, axis)",
			"tensorops.LogSoftmaxVJP(ls, dg, axis)", ""},
		[]string{
			"-rBar * tensorops.Exp(ls) * tensorops.ExpandAxis(tensorops.Sum(g, axis), ls, axis)",
			"tensorops.LogSoftmaxJVP(ls, rBar, axis)", ""},
		"g − softmax⊙Σ g")),
	// logΣexp a = r + log Σ exp(a − r), r its value held constant: the
	// exponentials are at most 1 and sum to 1 at the point.
	expanded("r + tensorops.Log(tensorops.Sum(tensorops.Exp(a - tensorops.ExpandAxis(r, a, axis)), axis))", linear("LogSumExp", []string{"a", "axis"}, FirstOrder,
		[]string{"tensorops.Sum(tensorops.Softmax(a, axis) * da, axis)", ""},
		[]string{"tensorops.ExpandAxis(rBar, a, axis) * tensorops.Softmax(a, axis)", ""},
		"d logΣexp a = Σ softmax(a)⊙da")),
	// CE = −Σ labels⊙logsoftmax(logits)/n, the rows' log-softmax.
	expanded("-tensorops.SumAll(labels * tensorops.LogSoftmax(logits, -1)) / tensorops.Dim(logits, 0)", linear("SoftmaxCrossEntropy", []string{"logits", "labels"}, FirstOrder,
		[]string{
			"tensorops.Dot(tensorops.SoftmaxCrossEntropyGrad(logits, labels, 1), dlogits)",
			"-tensorops.Dot(tensorops.LogSoftmax(logits, -1), dlabels) / tensorops.Dim(logits, 0)"},
		[]string{
			"tensorops.SoftmaxCrossEntropyGrad(logits, labels, rBar)",
			"tensorops.Scale(tensorops.LogSoftmax(logits, -1), -rBar / tensorops.Dim(logits, 0))"},
		"d CE = ⟨(softmax(logits) − labels)/n, dlogits⟩ − ⟨logsoftmax(logits)/n, dlabels⟩")),
	// SoftmaxCrossEntropyGrad(logits, labels, g) = g/n·(s⊙c − labels)
	// with s = softmax(logits) and c the row sums of labels (broadcast
	// along the rows), 1 for one-hot or probability rows but not along a
	// tangent of labels. In logits it is c·J_s row by row, J_s the
	// (symmetric) Jacobian of softmax, so the map and its adjoint are
	// SoftmaxJVP(s, g/n·c⊙·); in labels, dl ↦ g/n·(s⊙Σⱼdl − dl), whose
	// adjoint is r̄ ↦ g/n·(Σⱼ(r̄⊙s) − r̄), the sums broadcast along rows.
	expanded("(tensorops.Softmax(logits, -1) * tensorops.ExpandAxis(tensorops.Sum(labels, -1), logits, -1) - labels) * g / tensorops.Dim(logits, 0)", linear("SoftmaxCrossEntropyGrad", []string{"logits", "labels", "g"}, FirstOrder,
		[]string{
			"tensorops.SoftmaxJVP(tensorops.Softmax(logits, -1), tensorops.Scale(dlogits, g / tensorops.Dim(logits, 0)) * tensorops.ExpandAxis(tensorops.Sum(labels, -1), logits, -1), -1)",
			"tensorops.Scale(tensorops.Softmax(logits, -1) * tensorops.ExpandAxis(tensorops.Sum(dlabels, -1), logits, -1) - dlabels, g / tensorops.Dim(logits, 0))",
			"tensorops.SoftmaxCrossEntropyGrad(logits, labels, dg)"},
		[]string{
			"tensorops.SoftmaxJVP(tensorops.Softmax(logits, -1), tensorops.Scale(rBar, g / tensorops.Dim(logits, 0)) * tensorops.ExpandAxis(tensorops.Sum(labels, -1), logits, -1), -1)",
			"tensorops.Scale(tensorops.ExpandAxis(tensorops.Sum(rBar * tensorops.Softmax(logits, -1), -1), logits, -1) - rBar, g / tensorops.Dim(logits, 0))",
			"tensorops.Dot(tensorops.SoftmaxCrossEntropyGrad(logits, labels, 1), rBar)"},
		"g·(softmax(logits)⊙Σⱼlabels − labels)/n: d = g/n·(c⊙J_s·dlogits + s⊙Σⱼdlabels − dlabels) + dg/n·(s⊙c − labels)")),
}
