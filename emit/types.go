package emit

// This file defines the rendering of go/types types as jennifer code, and a
// walk over the named objects a type mentions (for imports and reserved
// names).

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// typ returns t as Go syntax: named types of the file's own package
// unqualified, others through jen.Qual so that jennifer manages imports.
func (fs *fileState) typ(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Alias:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return jen.Id(obj.Name()) // any
		}
		s := fs.qual(obj)
		if args := t.TypeArgs(); args != nil && args.Len() > 0 {
			s.Types(fs.typeList(args)...)
		}
		return s
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return jen.Qual("unsafe", "Pointer")
		}
		return jen.Id(t.Name())
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return jen.Id(obj.Name()) // error, comparable
		}
		s := fs.qual(obj)
		if args := t.TypeArgs(); args != nil && args.Len() > 0 {
			s.Types(fs.typeList(args)...)
		}
		return s
	case *types.TypeParam:
		return jen.Id(t.Obj().Name())
	case *types.Pointer:
		return jen.Op("*").Add(fs.typ(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(fs.typ(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(fs.typ(t.Elem()))
	case *types.Map:
		return jen.Map(fs.typ(t.Key())).Add(fs.typ(t.Elem()))
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			return jen.Chan().Op("<-").Add(fs.typ(t.Elem()))
		case types.RecvOnly:
			return jen.Op("<-").Chan().Add(fs.typ(t.Elem()))
		}
		return jen.Chan().Add(fs.typ(t.Elem()))
	case *types.Signature:
		return jen.Func().Add(fs.signature(t))
	case *types.Struct:
		var fields []jen.Code
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			var c *jen.Statement
			if f.Embedded() {
				c = jen.Add(fs.typ(f.Type()))
			} else {
				c = jen.Id(f.Name()).Add(fs.typ(f.Type()))
			}
			if tag := t.Tag(i); tag != "" {
				c.Op("`" + tag + "`")
			}
			fields = append(fields, c)
		}
		return jen.Struct(fields...)
	case *types.Interface:
		if t.Empty() {
			return jen.Any()
		}
		var elems []jen.Code
		for i := 0; i < t.NumEmbeddeds(); i++ {
			elems = append(elems, fs.typ(t.EmbeddedType(i)))
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			elems = append(elems, jen.Id(m.Name()).Add(fs.signature(m.Type().(*types.Signature))))
		}
		return jen.Interface(elems...)
	case *types.Union:
		s := jen.Null()
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				s.Op("|")
			}
			term := t.Term(i)
			if term.Tilde() {
				s.Op("~")
			}
			s.Add(fs.typ(term.Type()))
		}
		return s
	case *types.Tuple:
		internalf("tuple type %s in a type position", t)
	}
	internalf("cannot render type %s (%T)", t, t)
	return nil
}

// qual returns the name of a package-level object, qualified unless it
// belongs to the file's package.
func (fs *fileState) qual(obj types.Object) *jen.Statement {
	if obj.Pkg() == nil || obj.Pkg().Path() == fs.pkgPath {
		return jen.Id(obj.Name())
	}
	return jen.Qual(obj.Pkg().Path(), obj.Name())
}

func (fs *fileState) typeList(l *types.TypeList) []jen.Code {
	var cs []jen.Code
	for i := 0; i < l.Len(); i++ {
		cs = append(cs, fs.typ(l.At(i)))
	}
	return cs
}

// signature returns the parameters and results of sig (without "func").
func (fs *fileState) signature(sig *types.Signature) *jen.Statement {
	tuple := func(t *types.Tuple, variadic bool) []jen.Code {
		named := false
		for i := 0; i < t.Len(); i++ {
			named = named || t.At(i).Name() != ""
		}
		var cs []jen.Code
		for i := 0; i < t.Len(); i++ {
			v := t.At(i)
			ty := fs.typ(v.Type())
			if variadic && i == t.Len()-1 {
				ty = jen.Op("...").Add(fs.typ(v.Type().(*types.Slice).Elem()))
			}
			if named {
				name := v.Name()
				if name == "" {
					name = "_"
				}
				cs = append(cs, jen.Id(name).Add(ty))
			} else {
				cs = append(cs, ty)
			}
		}
		return cs
	}
	s := jen.Params(tuple(sig.Params(), sig.Variadic())...)
	res := sig.Results()
	switch {
	case res.Len() == 1 && res.At(0).Name() == "":
		s.Add(fs.typ(res.At(0).Type()))
	case res.Len() > 0:
		s.Params(tuple(res, false)...)
	}
	return s
}

// typeSet remembers the types a walk has visited (named types can be
// recursive).
type typeSet map[types.Type]bool

// walkType calls f for every named type, alias and type parameter's
// object mentioned in t.
func walkType(t types.Type, seen *typeSet, f func(types.Object)) {
	if t == nil {
		return
	}
	if *seen == nil {
		*seen = typeSet{}
	}
	if (*seen)[t] {
		return
	}
	(*seen)[t] = true
	switch t := t.(type) {
	case *types.Alias:
		f(t.Obj())
		if args := t.TypeArgs(); args != nil {
			for i := 0; i < args.Len(); i++ {
				walkType(args.At(i), seen, f)
			}
		}
	case *types.Named:
		f(t.Obj())
		if args := t.TypeArgs(); args != nil {
			for i := 0; i < args.Len(); i++ {
				walkType(args.At(i), seen, f)
			}
		}
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			f(types.Unsafe.Scope().Lookup("Pointer"))
		}
	case *types.Pointer:
		walkType(t.Elem(), seen, f)
	case *types.Slice:
		walkType(t.Elem(), seen, f)
	case *types.Array:
		walkType(t.Elem(), seen, f)
	case *types.Map:
		walkType(t.Key(), seen, f)
		walkType(t.Elem(), seen, f)
	case *types.Chan:
		walkType(t.Elem(), seen, f)
	case *types.Signature:
		walkType(t.Params(), seen, f)
		walkType(t.Results(), seen, f)
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			walkType(t.At(i).Type(), seen, f)
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			walkType(t.Field(i).Type(), seen, f)
		}
	case *types.Interface:
		for i := 0; i < t.NumEmbeddeds(); i++ {
			walkType(t.EmbeddedType(i), seen, f)
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			walkType(t.ExplicitMethod(i).Type(), seen, f)
		}
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			walkType(t.Term(i).Type(), seen, f)
		}
	}
}

// constName returns the constant that names value c of type t: the only
// constant of type t with that value that t's package declares, if the
// file may refer to it (exported, or declared in the file's package).
// It returns nil for types that are not defined types and for values that
// several constants, or none, name.
func (fs *fileState) constName(t types.Type, c constant.Value) *types.Const {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || c == nil || named.TypeArgs().Len() > 0 {
		return nil
	}
	tn := named.Obj()
	if tn.Pkg() == nil || tn.Parent() != tn.Pkg().Scope() {
		return nil // predeclared, or local to a function
	}
	consts, ok := fs.consts[tn]
	if !ok {
		scope := tn.Pkg().Scope()
		for _, name := range scope.Names() { // sorted: deterministic
			if k, ok := scope.Lookup(name).(*types.Const); ok && name != "_" && types.Identical(k.Type(), named) {
				consts = append(consts, k)
			}
		}
		fs.consts[tn] = consts
	}
	var found *types.Const
	for _, k := range consts {
		if sameConst(k.Val(), c) {
			if found != nil {
				return nil
			}
			found = k
		}
	}
	if found == nil || found.Pkg().Path() != fs.pkgPath && (!found.Exported() || !importable(fs.pkgPath, found.Pkg().Path())) {
		return nil
	}
	return found
}

// importable reports whether package from may import package to under
// Go's rule for internal packages. (The driver reports code that needs a
// type of a package it cannot import; a constant is only spelled by its
// name where that adds no such import.)
func importable(from, to string) bool {
	elems := strings.Split(to, "/")
	for i := len(elems) - 1; i >= 0; i-- {
		if elems[i] == "internal" {
			parent := strings.Join(elems[:i], "/")
			// The standard library's internal packages: none of ours.
			return parent != "" && (from == parent || strings.HasPrefix(from, parent+"/"))
		}
	}
	return true
}

// sameConst reports whether constant values x and y are equal.
func sameConst(x, y constant.Value) bool {
	num := func(v constant.Value) bool {
		switch v.Kind() {
		case constant.Int, constant.Float, constant.Complex:
			return true
		}
		return false
	}
	if x.Kind() == constant.Unknown || y.Kind() == constant.Unknown {
		return false
	}
	if x.Kind() != y.Kind() && !(num(x) && num(y)) {
		return false
	}
	return constant.Compare(x, token.EQL, y)
}
