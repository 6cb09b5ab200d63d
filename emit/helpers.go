package emit

// This file defines the helper functions that a generated file holds
// after its functions: the helpers of package templates that derivative
// rules call (gadDigamma, ir.DerivedFunc.Helper) and the alias check of
// reverse mode (gadApart, apart.go). Each package holds each helper once;
// the driver decides which of its files does (File.Helpers).

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// HelpersOf returns the names of the helper functions that the source of
// fn calls, in the order of their first call: a file of fn's package must
// hold them (File.Helpers).
func HelpersOf(fn *ir.Func) []string {
	var names []string
	if usesApart(fn) {
		names = append(names, apartHelper)
	}
	for _, b := range fn.Blocks {
		for _, v := range b.Instrs {
			if c := v.Callee; c != nil && c.Derived != nil && c.Derived.Helper && !slices.Contains(names, c.Derived.Name) {
				names = append(names, c.Derived.Name)
			}
		}
	}
	return names
}

// helperSource returns the source of the helper function name.
func helperSource(name string) (string, error) {
	if name == apartHelper {
		return apartSource, nil
	}
	if h, ok := templates.Helpers[name]; ok {
		return h, nil
	}
	return "", fmt.Errorf("emit: no helper %s in package templates", name)
}

// appendHelpers returns src, the source of a generated file, with the
// sources of the named helpers appended in order, importing package math
// when they use it, formatted with go/format.
func appendHelpers(src []byte, names []string) ([]byte, error) {
	if len(names) == 0 {
		return src, nil
	}
	var buf bytes.Buffer
	buf.Write(src)
	for _, n := range names {
		h, err := helperSource(n)
		if err != nil {
			return nil, err
		}
		buf.WriteString("\n")
		buf.WriteString(h)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", buf.Bytes(), parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("emit: internal error: %v", err)
	}
	if astutil.AddImport(fset, f, "math") && !astutil.UsesImport(f, "math") {
		astutil.DeleteImport(fset, f, "math")
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, fmt.Errorf("emit: internal error: %v", err)
	}
	return out.Bytes(), nil
}
