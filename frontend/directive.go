package frontend

// This file defines the //gad: directives: their syntax, where they may
// appear, and their resolution to the function they name.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
)

// directivePrefix starts every directive. Like //go: directives, it has
// no space after the slashes.
const directivePrefix = "//gad:"

// RuleMode is the directive //gad:rule p1="∂f/∂p1" …, which gives the
// function it documents a derivative rule (see the driver).
const RuleMode = "rule"

// CheckpointMode is the directive //gad:checkpoint, which makes reverse
// mode recompute the calls of the function it documents rather than
// record their values (see the driver).
const CheckpointMode = "checkpoint"

// bodyless reports whether mode is a directive that marks the function it
// documents (a rule, a checkpoint) rather than asking for a derivative.
func bodyless(mode string) bool { return mode == RuleMode || mode == CheckpointMode }

// ModeSpec describes a mode that directives may name.
type ModeSpec struct {
	// Name is the directive's mode ("jvp").
	Name string
	// Options are the option keys the mode accepts besides wrt.
	Options []string
}

// Option is one key=value option of a directive.
type Option struct {
	Key, Value string
}

// Directive is one parsed, checked and resolved //gad: directive.
type Directive struct {
	// Mode is the directive's mode ("jvp").
	Mode string
	// Options are the key=value options in source order, wrt included.
	Options []Option
	// Wrt lists the parameters named by wrt=, or nil without wrt=.
	Wrt []string
	// Active says which parameters of Target (receiver first) are
	// varied: those of Wrt, or else ir.DefaultActivity(Target).
	Active []bool
	// Pos is the position of the comment.
	Pos token.Pos
	// File is the file holding the directive; File.Pkg its package.
	File *File
	// Target is the function or method to differentiate.
	Target *types.Func
	// LocalName is the name given by the cross-package form; "" for a
	// directive in a function's doc comment.
	LocalName string
	// Decl is the annotated declaration (doc-comment form), or nil.
	Decl *ast.FuncDecl
	// Text is the comment.
	Text string
}

// Option returns the value of the option key and whether it is present.
func (d *Directive) Option(key string) (string, bool) {
	for _, o := range d.Options {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

// Pkg returns the package holding the directive.
func (d *Directive) Pkg() *packages.Package { return d.File.Pkg }

// syntax is a directive comment split into its parts.
type syntax struct {
	mode       string
	positional []string
	options    []Option
	offsets    []int // byte offset in the comment of each positional, then each option
}

// parseSyntax splits a //gad: comment.
func parseSyntax(text string) (*syntax, error) {
	rest := text[len(directivePrefix):]
	s := &syntax{}
	off := len(directivePrefix)
	var fields []string
	var offsets []int
	for i := 0; i < len(rest); {
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
		j := i
		for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' {
			if rest[j] == '"' && j > i && rest[j-1] == '=' {
				// A quoted value, key="…": spaces and escapes inside.
				k, ok := quotedEnd(rest, j)
				if !ok {
					return nil, fmt.Errorf("malformed directive %q: unterminated quoted value", text)
				}
				j = k
				continue
			}
			j++
		}
		if j > i {
			fields = append(fields, rest[i:j])
			offsets = append(offsets, off+i)
		}
		i = j
	}
	if len(fields) == 0 || rest[0] == ' ' || rest[0] == '\t' {
		return nil, fmt.Errorf("malformed directive %q: want //gad:MODE [options]", text)
	}
	s.mode = fields[0]
	if !isModeName(s.mode) {
		return nil, fmt.Errorf("malformed directive %q: bad mode name %q", text, s.mode)
	}
	seen := map[string]bool{}
	for k, f := range fields[1:] {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			if len(s.options) > 0 {
				return nil, fmt.Errorf("malformed directive %q: argument %q after options", text, f)
			}
			s.positional = append(s.positional, f)
			s.offsets = append(s.offsets, offsets[k+1])
			continue
		}
		if strings.HasPrefix(value, `"`) {
			u, err := strconv.Unquote(value)
			if err != nil {
				return nil, fmt.Errorf("malformed directive %q: option %s: bad quoted value %s", text, key, value)
			}
			if value = u; value == "" {
				return nil, fmt.Errorf("malformed directive %q: option %s has an empty value", text, key)
			}
		}
		if !token.IsIdentifier(key) || value == "" {
			return nil, fmt.Errorf("malformed directive %q: option %q is not key=value", text, f)
		}
		if seen[key] {
			return nil, fmt.Errorf("malformed directive %q: option %s given twice", text, key)
		}
		seen[key] = true
		s.options = append(s.options, Option{key, value})
		s.offsets = append(s.offsets, offsets[k+1])
	}
	return s, nil
}

// quotedEnd returns the index after the Go string literal that starts
// at s[i] (a double quote), and whether it is terminated.
func quotedEnd(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

func isModeName(s string) bool {
	for i, r := range s {
		if !('a' <= r && r <= 'z' || i > 0 && ('0' <= r && r <= '9' || r == '_')) {
			return false
		}
	}
	return s != ""
}

// directiveComments returns the //gad: comments of f with the function
// declaration each documents (nil for others).
func directiveComments(f *ast.File) (comments []*ast.Comment, decls []*ast.FuncDecl) {
	doc := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			doc[fd.Doc] = fd
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, directivePrefix) {
				comments = append(comments, c)
				decls = append(decls, doc[cg])
			}
		}
	}
	return comments, decls
}

// Directives returns the directives of p's files (see Files), in file
// order and then source order, checked against modes. Directives with
// problems are left out and reported.
func (p *Program) Directives(modes []ModeSpec) ([]*Directive, diag.List) {
	var (
		dirs  []*Directive
		diags diag.List
	)
	for _, f := range p.Files() {
		comments, decls := directiveComments(f.Syntax)
		for i, c := range comments {
			d, errs := p.directive(f, c, decls[i], modes)
			diags = append(diags, errs...)
			if d != nil {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs, diags.Sort()
}

// Misspelled returns warnings for the comments of p's files that look like
// directives of modes but are not, because a space follows the slashes
// ("// gad:grad"): gofmt keeps them, and gadgen would ignore them without a
// word, as the go command ignores "// go:build".
func (p *Program) Misspelled(modes []ModeSpec) diag.List {
	var warns diag.List
	for _, f := range p.Files() {
		for _, cg := range f.Syntax.Comments {
			for _, c := range cg.List {
				rest, ok := strings.CutPrefix(c.Text, "//")
				trimmed := strings.TrimLeft(rest, " \t")
				if !ok || len(trimmed) == len(rest) {
					continue
				}
				word, ok := strings.CutPrefix(trimmed, "gad:")
				if !ok {
					continue
				}
				word, _, _ = strings.Cut(word, " ")
				if !slices.ContainsFunc(modes, func(m ModeSpec) bool { return m.Name == word }) {
					continue
				}
				warns = append(warns, diag.Diagnostic{Pos: p.Fset.Position(c.Slash), Warning: true,
					Msg: fmt.Sprintf("%q is not a directive and is ignored: write //gad:%s, with no space after the slashes", c.Text, word)})
			}
		}
	}
	return warns.Sort()
}

// directive parses, resolves and checks one directive comment.
func (p *Program) directive(f *File, c *ast.Comment, decl *ast.FuncDecl, modes []ModeSpec) (*Directive, diag.List) {
	var diags diag.List
	errAt := func(pos token.Pos, format string, args ...any) (*Directive, diag.List) {
		diags.Add(p.Fset.Position(pos), "", "directive", format, args...)
		return nil, diags
	}
	s, err := parseSyntax(c.Text)
	if err != nil {
		return errAt(c.Slash, "%v", err)
	}
	var spec *ModeSpec
	var known []string
	for i := range modes {
		known = append(known, modes[i].Name)
		if modes[i].Name == s.mode {
			spec = &modes[i]
		}
	}
	if spec == nil {
		return errAt(c.Slash, "unknown mode %q in %s (known modes: %s)", s.mode, c.Text, strings.Join(known, ", "))
	}
	for i, o := range s.options {
		if s.mode == RuleMode {
			break // parameter names, checked by the driver
		}
		if s.mode == CheckpointMode {
			return errAt(c.Slash+token.Pos(s.offsets[len(s.positional)+i]), "//gad:checkpoint takes no options")
		}
		if o.Key != "wrt" && !slices.Contains(spec.Options, o.Key) {
			keys := append([]string{"wrt"}, spec.Options...)
			return errAt(c.Slash+token.Pos(s.offsets[len(s.positional)+i]),
				"unknown option %q for //gad:%s (known: %s)", o.Key, s.mode, strings.Join(keys, ", "))
		}
	}
	d := &Directive{Mode: s.mode, Options: s.options, Pos: c.Slash, File: f, Text: c.Text}

	// Where is it?
	var inside ast.Decl
	for _, dcl := range f.Syntax.Decls {
		if dcl.Pos() <= c.Slash && c.Slash < dcl.End() {
			inside = dcl
		}
	}
	switch len(s.positional) {
	case 0:
		if decl == nil {
			if fd, ok := inside.(*ast.FuncDecl); ok {
				return errAt(c.Slash, "%s inside the body of %s: a directive goes in a function's doc comment", c.Text, fd.Name.Name)
			}
			return errAt(c.Slash, "%s does not document a function declaration (a directive on a non-function)", c.Text)
		}
		obj, _ := f.Pkg.TypesInfo.Defs[decl.Name].(*types.Func)
		if obj == nil {
			return errAt(c.Slash, "no type information for %s", decl.Name.Name)
		}
		d.Target, d.Decl = obj, decl
		if bodyless(s.mode) {
			return d, nil // a rule or a checkpoint needs no body, and has no activity
		}
		if decl.Body == nil {
			return errAt(c.Slash, "%s has no body to differentiate", FuncName(obj))
		}
	case 2:
		if s.mode == RuleMode {
			return errAt(c.Slash, "%s: a rule goes in the doc comment of the function it differentiates", c.Text)
		}
		if s.mode == CheckpointMode {
			return errAt(c.Slash, "%s: a checkpoint goes in the doc comment of the function whose calls it checkpoints", c.Text)
		}
		if inside != nil {
			if _, ok := inside.(*ast.FuncDecl); ok && decl == nil {
				return errAt(c.Slash, "%s inside a function body: the cross-package form goes at the top level of a file", c.Text)
			}
			if _, ok := inside.(*ast.GenDecl); ok {
				return errAt(c.Slash, "%s inside a declaration: the cross-package form goes at the top level of a file", c.Text)
			}
		}
		local := s.positional[0]
		if !token.IsIdentifier(local) || local == "_" {
			return errAt(c.Slash+token.Pos(s.offsets[0]), "malformed directive %q: %q is not a valid name", c.Text, local)
		}
		target, msg := p.resolve(f.Pkg, s.positional[1])
		if target == nil {
			return errAt(c.Slash+token.Pos(s.offsets[1]), "%s", msg)
		}
		d.Target, d.LocalName = target, local
	default:
		return errAt(c.Slash, "malformed directive %q: want //gad:%s [options] in a function's doc comment, or //gad:%s LocalName importpath.Func [options]",
			c.Text, s.mode, s.mode)
	}

	sig := d.Target.Type().(*types.Signature)
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		return errAt(c.Slash, "%s is generic: generic functions are not supported yet", FuncName(d.Target))
	}

	// Activity.
	params := ir.Params(d.Target)
	// A parameter whose type did not type-check (an import that failed)
	// counts as varied: the type errors are reported, and the driver
	// stubs no derivative with an invalid type in its signature.
	invalid := func(k int) bool {
		return ir.Holds(params[k].Type(), func(t types.Type) bool { return t == types.Typ[types.Invalid] })
	}
	if wrt, ok := d.Option("wrt"); ok {
		d.Active = make([]bool, len(params))
		for _, name := range strings.Split(wrt, ",") {
			k := slices.IndexFunc(params, func(v *types.Var) bool { return v.Name() == name && name != "" && name != "_" })
			switch {
			case k < 0:
				diags.Add(p.Fset.Position(c.Slash), "", "directive", "wrt: %q is not a parameter of %s", name, FuncName(d.Target))
			case d.Active[k]:
				diags.Add(p.Fset.Position(c.Slash), "", "directive", "wrt: %s named twice", name)
			case invalid(k):
				d.Active[k] = true
			case !ir.HasFloat(params[k].Type()):
				diags.Add(p.Fset.Position(c.Slash), "", "directive", "wrt: parameter %s of type %s holds no floating-point values",
					name, types.TypeString(params[k].Type(), types.RelativeTo(d.Target.Pkg())))
			default:
				d.Active[k] = true
			}
			d.Wrt = append(d.Wrt, name)
		}
		if len(diags) > 0 {
			return nil, diags
		}
	} else {
		d.Active = ir.DefaultActivity(d.Target)
		for k := range d.Active {
			d.Active[k] = d.Active[k] || invalid(k)
		}
		if !slices.Contains(d.Active, true) {
			hint := ""
			if sig.Recv() != nil && ir.HasFloat(sig.Recv().Type()) {
				hint = " (a receiver is varied only when wrt= names it)"
			}
			return errAt(c.Slash, "%s has no parameter holding floating-point values to vary%s", FuncName(d.Target), hint)
		}
	}
	return d, nil
}

// splitTarget returns the ways to read a cross-package target
// "importpath.Name" or "importpath.Type.Method": the import path and the
// one or two names after it.
func splitTarget(s string) (paths []string, names [][]string) {
	slash := strings.LastIndex(s, "/")
	last := s[slash+1:]
	parts := strings.Split(last, ".")
	// The import path ends before the last one or two dot-separated
	// parts of the last path element.
	for n := 1; n <= 2 && n < len(parts); n++ {
		path := s[:slash+1] + strings.Join(parts[:len(parts)-n], ".")
		paths = append(paths, path)
		names = append(names, parts[len(parts)-n:])
	}
	return paths, names
}

// resolve finds the function or method that a cross-package target names,
// as seen from package from. It returns nil and a message when there is
// none.
func (p *Program) resolve(from *packages.Package, target string) (*types.Func, string) {
	paths, names := splitTarget(target)
	if len(paths) == 0 {
		return nil, fmt.Sprintf("malformed target %q: want importpath.Func or importpath.Type.Method", target)
	}
	msg := ""
	for i, path := range paths {
		lp := importedAs(from, path)
		if lp == nil {
			if cands := p.packagesByPath(path); len(cands) > 0 {
				lp = cands[0]
			}
		}
		if lp == nil || lp.Types == nil || len(lp.CompiledGoFiles) == 0 {
			continue // not found: go list reports missing packages as empty ones
		}
		fn, m := lookupFunc(lp.Types, names[i])
		if fn != nil {
			return fn, ""
		}
		if msg == "" {
			msg = m
		}
	}
	if msg == "" {
		msg = fmt.Sprintf("unknown package in target %q: no package %s is loaded", target, strings.Join(paths, " or "))
	}
	return nil, msg
}

// importedAs returns the package with import path path that from sees:
// from itself or one of its (transitive) imports.
func importedAs(from *packages.Package, path string) *packages.Package {
	var found *packages.Package
	seen := map[*packages.Package]bool{}
	var walk func(lp *packages.Package)
	walk = func(lp *packages.Package) {
		if found != nil || seen[lp] {
			return
		}
		seen[lp] = true
		if lp.PkgPath == path {
			found = lp
			return
		}
		for _, q := range lp.Imports {
			walk(q)
		}
	}
	walk(from)
	return found
}

// lookupFunc finds Func or Type.Method in pkg.
func lookupFunc(pkg *types.Package, names []string) (*types.Func, string) {
	obj := pkg.Scope().Lookup(names[0])
	if len(names) == 1 {
		switch obj := obj.(type) {
		case nil:
			return nil, fmt.Sprintf("unknown function %s.%s", pkg.Path(), names[0])
		case *types.Func:
			return obj, ""
		default:
			return nil, fmt.Sprintf("%s.%s is not a function", pkg.Path(), names[0])
		}
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return nil, fmt.Sprintf("unknown type %s.%s", pkg.Path(), names[0])
	}
	m, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, pkg, names[1])
	fn, ok := m.(*types.Func)
	if !ok {
		return nil, fmt.Sprintf("unknown method %s.%s.%s", pkg.Path(), names[0], names[1])
	}
	recv := fn.Type().(*types.Signature).Recv().Type()
	if ptr, ok := recv.(*types.Pointer); ok {
		recv = ptr.Elem()
	}
	if named, ok := recv.(*types.Named); !ok || named.Obj() != tn {
		return nil, fmt.Sprintf("method %s of %s.%s is promoted from an embedded field: name the type that declares it",
			names[1], pkg.Path(), names[0])
	}
	return fn, ""
}

// missingTargets returns the import paths that cross-package directives of
// the root packages may name but that are not loaded.
func (p *Program) missingTargets() []string {
	loaded := map[string]bool{}
	for _, lp := range p.all {
		loaded[lp.PkgPath] = true
	}
	var missing []string
	for _, f := range p.Files() {
		comments, _ := directiveComments(f.Syntax)
		for _, c := range comments {
			s, err := parseSyntax(c.Text)
			if err != nil || len(s.positional) != 2 {
				continue
			}
			paths, _ := splitTarget(s.positional[1])
			if slices.ContainsFunc(paths, func(path string) bool { return loaded[path] }) {
				continue
			}
			for _, path := range paths {
				if !slices.Contains(missing, path) {
					missing = append(missing, path)
				}
			}
		}
	}
	slices.Sort(missing)
	return missing
}

// FuncName names fn in diagnostics: "F", or "T.M" for a method.
func FuncName(fn *types.Func) string { return ir.FuncName(fn) }
