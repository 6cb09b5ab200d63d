// This file defines the helper functions that partials may call besides
// package math, and their rules. Each is real Go, used by Eval, the IR
// interpreter and tests, and its source text is also what Helpers hands
// the emitter to paste into generated files, so there is one copy. A
// helper must be self-contained: a top-level function named gad*, of
// float64 and int arguments and one float64 result, that uses only package
// math (helpers_test.go checks this). Its rule, in helperRules, lets every
// mode differentiate the partials that call it (Taylor mode expands a
// partial to order K−1); a helper's partials call only helpers.

package templates

import (
	_ "embed"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strings"
)

// helperRules holds the rules of the helpers (Pkg ""). Their partials call
// helpers only, never package math, so that they lower wherever the
// partials that call them do.
var helperRules = []*Rule{
	// ψ′(x) = ψ⁽¹⁾(x)
	{
		Name: "gadDigamma", Func: gadDigamma, Params: []string{"x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"gadPolygamma(1, x)"}},
		Domain:   [][2]float64{{0.2, 10}},
		Math:     "d/dx ψ(x) = ψ⁽¹⁾(x)",
		Note:     "NaN at the poles 0, -1, -2, ...",
	},
	// d/dx ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁺¹⁾(x)
	{
		Name: "gadPolygamma", Func: gadPolygamma, Params: []string{"n", "x"}, Results: []string{"r"}, Kind: Smooth,
		Partials: [][]string{{"", "gadPolygamma(n+1, x)"}},
		Domain:   [][2]float64{{1, 6}, {0.2, 10}},
		Math:     "d/dx ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁺¹⁾(x)",
		Note:     "the order n is an int; NaN at the poles 0, -1, -2, ... and for n < 1",
	},
}

//go:embed helpers.go
var helpersSource string

// Helpers maps the name of each helper function that partials may call
// (as "gadDigamma(x)") to its Go source text: a self-contained top-level
// function declaration with its doc comment, gofmt'ed, that imports
// nothing but package math. An emitter pastes the source of each helper a
// generated file calls into that file once, and imports "math".
var Helpers = extractHelpers(helpersSource)

// extractHelpers returns the source text of the gad* functions of src.
func extractHelpers(src string) map[string]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "helpers.go", src, parser.ParseComments)
	if err != nil {
		panic("templates: parse helpers.go: " + err.Error())
	}
	h := make(map[string]string)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "gad") {
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		h[fd.Name.Name] = src[fset.Position(start).Offset:fset.Position(fd.End()).Offset] + "\n"
	}
	return h
}

// gadDigamma returns the digamma function ψ(x) = Γ'(x)/Γ(x), the
// derivative of ln|Γ(x)|, with an error below 2e-15·max(1, |ψ(x)|):
// relative where |ψ(x)| ≥ 1, absolute near the zeros of ψ (checked against
// mpmath at 3000 points in [-3e6, 5e8]). It returns NaN at the poles 0, -1,
// -2, ... and for NaN or -Inf, and +Inf for +Inf.
//
// For x < 0 it uses the reflection ψ(x) = ψ(1-x) - π/tan(πx); it shifts x
// up to at least 10 by ψ(x) = ψ(x+1) - 1/x and then sums the asymptotic
// series ψ(x) ~ ln x - 1/(2x) - Σ B₂ₖ/(2k x²ᵏ), k = 1..7, whose error there
// is below 1e-16.
func gadDigamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	case x <= 0 && x == math.Floor(x):
		return math.NaN()
	}
	r := 0.0
	if x < 0 {
		// tan has period π, so tan(πx) = tan(πt) with t = x - round(x)
		// in [-1/2, 1/2], computed exactly.
		t := x - math.Round(x)
		r = -math.Pi / math.Tan(math.Pi*t)
		x = 1 - x
	}
	for x < 10 {
		r -= 1 / x
		x++
	}
	w := 1 / x
	z := w * w
	return r + math.Log(x) - 0.5*w -
		z*(1.0/12-z*(1.0/120-z*(1.0/252-z*(1.0/240-z*(1.0/132-z*(691.0/32760-z/12))))))
}

// gadPolygamma returns the polygamma function ψ⁽ⁿ⁾(x), the n-th derivative
// of the digamma function, for n ≥ 1, with a relative error below about
// 1e-14 for n ≤ 12 (checked against mpmath). It returns NaN for n < 1, at
// the poles 0, -1, -2, ... and for NaN or -Inf, and 0 for +Inf.
//
// For x < 0 it uses the reflection ψ⁽ⁿ⁾(x) = (-1)ⁿψ⁽ⁿ⁾(1-x) - π dⁿ/dxⁿ
// cot(πx), where dⁿ/dxⁿ cot(πx) = πⁿPₙ(cot πx), P₀(c) = c and
// Pₖ₊₁(c) = -(1+c²)Pₖ′(c) (polynomials whose terms all have one sign). For
// x > 0 it shifts x up to at least 10+2n by ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x+1) +
// (-1)ⁿ⁺¹n!/xⁿ⁺¹ and sums the asymptotic series ψ⁽ⁿ⁾(x) ~ (-1)ⁿ⁺¹[(n-1)!/xⁿ
// + n!/(2xⁿ⁺¹) + Σ B₂ₖ(2k+n-1)!/((2k)! x²ᵏ⁺ⁿ)], k = 1..7.
func gadPolygamma(n int, x float64) float64 {
	switch {
	case n < 1 || math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case x <= 0 && x == math.Floor(x):
		return math.NaN()
	}
	if x < 0 {
		// cot has period π, so cot(πx) = cot(πt) with t = x - round(x)
		// in [-1/2, 1/2], computed exactly.
		t := x - math.Round(x)
		c := 1 / math.Tan(math.Pi*t)
		p := []float64{0, 1} // Pₖ's coefficients, lowest degree first
		for range n {
			q := make([]float64, len(p)+1)
			for i := 1; i < len(p); i++ {
				d := float64(i) * p[i] // Pₖ′ = Σ i·pᵢ·cⁱ⁻¹
				q[i-1] -= d
				q[i+1] -= d
			}
			p = q
		}
		v := 0.0
		for i := len(p) - 1; i >= 0; i-- {
			v = v*c + p[i]
		}
		r := gadPolygamma(n, 1-x)
		if n%2 == 1 {
			r = -r
		}
		return r - math.Pow(math.Pi, float64(n+1))*v
	}
	// With y = x+m after m shifts and bₖ = B₂ₖ/(2k)!: ψ⁽ⁿ⁾(x) =
	// (-1)ⁿ⁺¹(n-1)!·[n·Σⱼ (x+j)⁻ⁿ⁻¹ + y⁻ⁿ·(1 + n/(2y) + Σₖ bₖ·n(n+1)…(n+2k-1)·y⁻²ᵏ)].
	fact := 1.0 // (n-1)!
	for i := 2; i < n; i++ {
		fact *= float64(i)
	}
	shift := 0.0
	for ; x < float64(10+2*n); x++ {
		shift += math.Pow(x, -float64(n+1))
	}
	b := [...]float64{1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160,
		-691.0 / 1307674368000, 1.0 / 74724249600}
	w := 1 / (x * x)
	sum, rise, pw := 0.0, 1.0, 1.0
	for k, bk := range b {
		m := float64(n + 2*k)
		rise *= m * (m + 1)
		pw *= w
		sum += bk * rise * pw
	}
	r := fact * (float64(n)*shift + math.Pow(x, -float64(n))*(1+float64(n)/(2*x)+sum))
	if n%2 == 0 {
		r = -r
	}
	return r
}
