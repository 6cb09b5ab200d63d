// This file defines the helper functions that partials may call besides
// package math. Each is real Go, used by Eval and tests, and its source text
// is also what Helpers hands the emitter to paste into generated files, so
// there is one copy. A helper must be self-contained: a top-level function
// named gad*, of one float64 argument and one float64 result, that uses only
// package math (helpers_test.go checks this).

package templates

import (
	_ "embed"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strings"
)

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
