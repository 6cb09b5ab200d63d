package frontend

// This file defines CheckAccess, which finds the identifiers of other
// packages that a function to be generated into some package would need
// but could not name (unexported functions, variables, fields and types).

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
)

// CheckAccess reports the identifiers of packages other than pkg that f
// refers to and that code in pkg cannot name: unexported functions,
// methods, package-level variables, struct fields and named types (in the
// types of f's values), and any identifier of a package that pkg cannot
// import (see Importable). fname names the function in the diagnostics and
// position resolves positions. It returns one diagnostic per identifier,
// at its first use.
func CheckAccess(f *ir.Func, pkg *types.Package, fname string, position func(token.Pos) token.Position) diag.List {
	var diags diag.List
	seen := map[types.Object]bool{}
	seenPkg := map[*types.Package]bool{}
	report := func(obj types.Object, pos token.Pos, what string) {
		if obj == nil || obj.Pkg() == nil || obj.Pkg() == pkg || obj.Pkg().Path() == pkg.Path() || seen[obj] {
			return
		}
		if !pos.IsValid() {
			pos = f.Pos
		}
		if !Importable(pkg.Path(), obj.Pkg().Path()) {
			if !seenPkg[obj.Pkg()] {
				seenPkg[obj.Pkg()] = true
				diags.Add(position(pos), fname, "internal package",
					"%s %s.%s is in package %s, which package %s cannot import",
					what, obj.Pkg().Name(), obj.Name(), obj.Pkg().Path(), pkg.Path())
			}
			return
		}
		if obj.Exported() {
			return
		}
		seen[obj] = true
		diags.Add(position(pos), fname, "unexported identifier",
			"%s %s.%s is not exported: code generated in package %s cannot refer to it",
			what, obj.Pkg().Name(), obj.Name(), pkg.Name())
	}
	var typ func(t types.Type, pos token.Pos, seenT map[types.Type]bool)
	typ = func(t types.Type, pos token.Pos, seenT map[types.Type]bool) {
		if t == nil || seenT[t] {
			return
		}
		seenT[t] = true
		switch t := t.(type) {
		case *types.Named:
			report(t.Obj(), pos, "type")
			for a := range t.TypeArgs().Types() {
				typ(a, pos, seenT)
			}
		case *types.Alias:
			report(t.Obj(), pos, "type")
		case *types.Pointer:
			typ(t.Elem(), pos, seenT)
		case *types.Slice:
			typ(t.Elem(), pos, seenT)
		case *types.Array:
			typ(t.Elem(), pos, seenT)
		case *types.Map:
			typ(t.Key(), pos, seenT)
			typ(t.Elem(), pos, seenT)
		case *types.Chan:
			typ(t.Elem(), pos, seenT)
		case *types.Struct:
			for fld := range t.Fields() {
				report(fld, pos, "field")
				typ(fld.Type(), pos, seenT)
			}
		case *types.Tuple:
			for v := range t.Variables() {
				typ(v.Type(), pos, seenT)
			}
		case *types.Signature:
			typ(t.Params(), pos, seenT)
			typ(t.Results(), pos, seenT)
		case *types.Interface:
			for m := range t.Methods() {
				report(m, pos, "method")
			}
		}
	}
	seenT := map[types.Type]bool{}
	typ(f.Recv, f.Pos, seenT)
	for _, p := range f.Params {
		typ(p.Type, f.Pos, seenT)
	}
	for _, t := range f.ResultTypes {
		typ(t, f.Pos, seenT)
	}
	visit := func(v *ir.Value) {
		typ(v.Type, v.Pos, seenT)
		switch v.Op {
		case ir.OpCall:
			if c := v.Callee; c.Func != nil && c.Derived == nil {
				what := "function"
				if c.Func.Type().(*types.Signature).Recv() != nil {
					what = "method"
				}
				report(c.Func, v.Pos, what)
			}
		case ir.OpGlobal:
			report(v.Global, v.Pos, "variable")
		case ir.OpField, ir.OpFieldAddr:
			t := v.Args[0].Type
			if p, ok := t.Underlying().(*types.Pointer); ok && v.Op == ir.OpFieldAddr {
				t = p.Elem()
			}
			if s, ok := t.Underlying().(*types.Struct); ok && v.Index < s.NumFields() {
				report(s.Field(v.Index), v.Pos, "field")
			}
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			visit(v)
			for _, a := range v.Args {
				if a != nil && a.Op == ir.OpConst {
					typ(a.Type, v.Pos, seenT)
				}
			}
		}
	}
	return slices.Clip(diags.Sort())
}

// Importable reports whether the package with path from may import the
// package with path to under the go command's rule for internal packages:
// a path with an element "internal" is importable only from within the
// tree rooted at the parent of that element. Main packages and vendored
// paths are not considered.
func Importable(from, to string) bool {
	elems := strings.Split(to, "/")
	for i := len(elems) - 1; i >= 0; i-- {
		if elems[i] != "internal" {
			continue
		}
		parent := strings.Join(elems[:i], "/")
		return parent == "" && !strings.Contains(strings.Split(from, "/")[0], ".") ||
			from == parent || strings.HasPrefix(from, parent+"/")
	}
	return true
}
