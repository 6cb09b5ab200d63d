package reverse_test

// This file defines the environment of the execution tests: the programs
// of testdata/rev, loaded once, and an ssaad.Env over them that generates
// the reverse (Mode{Callee: true}) of each function a derivative calls,
// for the interpreter, and summarizes callees as the driver does.

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/revolve"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
)

// loadRev loads the packages of testdata/rev once for all tests.
var loadRev = sync.OnceValues(func() (*frontend.Program, error) {
	prog, err := frontend.Load(&frontend.Config{Dir: "testdata/rev"}, "./...")
	if err != nil {
		return nil, err
	}
	if errs := prog.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("%v", errs)
	}
	return prog, nil
})

// program returns the loaded testdata, failing t if it does not load.
func program(t *testing.T) *frontend.Program {
	t.Helper()
	prog, err := loadRev()
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// lookup returns the function pkg.name of the testdata ("T.M" names the
// method M of T), failing t if there is none.
func lookup(t *testing.T, prog *frontend.Program, pkg, name string) *types.Func {
	t.Helper()
	for _, lp := range prog.Roots {
		if lp.Name != pkg || lp.ForTest != "" {
			continue
		}
		recv, meth, isMethod := strings.Cut(name, ".")
		if !isMethod {
			if fn, ok := lp.Types.Scope().Lookup(name).(*types.Func); ok {
				return fn
			}
			break
		}
		tn, ok := lp.Types.Scope().Lookup(recv).(*types.TypeName)
		if !ok {
			break
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, lp.Types, meth)
		if fn, ok := obj.(*types.Func); ok {
			return fn
		}
		break
	}
	t.Fatalf("no function %s.%s in testdata/rev", pkg, name)
	return nil
}

// revEnv is the ssaad.Env (and ssaad.OriginsEnv, ssaad.AliasEnv, and
// simplify.Env for inlining) of the execution tests. Derivative transforms the callee at once, with the
// primal and derivative pipelines of the optimization level, into
// derived, which the interpreter resolves calls by; the summaries are
// computed from fresh lowerings, a recursive function's as unknown.
type revEnv struct {
	prog     *frontend.Program
	optimize bool
	derived  map[string]*ir.Func
	bodies   map[*types.Func]*ir.Func
	busy     map[string]bool
}

func newRevEnv(prog *frontend.Program, optimize bool) *revEnv {
	return &revEnv{prog: prog, optimize: optimize, derived: map[string]*ir.Func{}, bodies: map[*types.Func]*ir.Func{}, busy: map[string]bool{}}
}

func (e *revEnv) config() simplify.Config { return simplify.Config{Optimize: e.optimize, Check: true} }

// body returns the lowered body of fn, read-only, or nil when it has
// none.
func (e *revEnv) body(fn *types.Func) *ir.Func {
	if f, ok := e.bodies[fn]; ok {
		return f
	}
	f, diags := e.prog.Lower(fn)
	if len(diags) > 0 {
		f = nil
	}
	e.bodies[fn] = f
	return f
}

// Derivative implements ssaad.Env: the reverse of callee (the callee
// variant), generated now.
func (e *revEnv) Derivative(mode string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	m := reverse.Mode{Callee: true}
	switch mode {
	case reverse.CalleeMode:
	case reverse.SplitMode:
		m = reverse.Mode{Split: true}
	default:
		return nil, fmt.Errorf("revEnv: mode %q of %s", mode, callee.FullName())
	}
	if err := ssaad.Refusal(callee); err != nil {
		return nil, err
	}
	name := ir.FuncName(callee) + m.Suffix()
	for _, a := range active {
		name += map[bool]string{false: "0", true: "1"}[a]
	}
	req := &ssaad.Request{Mode: mode, Target: callee, Name: name, Active: active, Pos: pos}
	sig, err := m.Signature(req)
	if err != nil {
		return nil, err
	}
	if _, ok := e.derived[name]; !ok {
		e.derived[name] = nil // being generated: a recursive call stops here
		f, diags := e.prog.Lower(callee)
		if len(diags) > 0 {
			return nil, fmt.Errorf("%v", diags)
		}
		simplify.Run(f, simplify.Primal, e.config())
		d, errs := m.Transform(f, req, e)
		if len(errs) > 0 {
			delete(e.derived, name)
			return nil, fmt.Errorf("%v", errs)
		}
		if err := ir.Check(d); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		simplify.Run(d, simplify.Derivative, e.config())
		e.derived[name] = d
	}
	return &ir.DerivedFunc{Name: name, Sig: sig}, nil
}

// Position implements ssaad.Env.
func (e *revEnv) Position(pos token.Pos) token.Position { return e.prog.Position(pos) }

// summary returns compute's result for callee's body, nil when callee has
// none or while it is being computed (recursion: unknown).
func summary[T any](e *revEnv, kind string, callee *types.Func, compute func(*ir.Func) T) (T, bool) {
	var zero T
	key := kind + " " + callee.FullName()
	f := e.body(callee)
	if f == nil || e.busy[key] {
		return zero, false
	}
	e.busy[key] = true
	defer delete(e.busy, key)
	return compute(f), true
}

// Writes implements ssaad.Env as the driver does (ssaad.PersistentWrites).
func (e *revEnv) Writes(callee *types.Func) []bool {
	w, _ := summary(e, "writes", callee, func(f *ir.Func) []bool { return ssaad.PersistentWrites(f, e.Writes, ssaad.EnvFacts(e)) })
	return w
}

// Reads implements ssaad.Env (ssaad.ParamReads).
func (e *revEnv) Reads(callee *types.Func) []bool {
	r, _ := summary(e, "reads", callee, func(f *ir.Func) []bool { return ssaad.ParamReads(f, e.Writes, e.Reads) })
	return r
}

// Origins implements ssaad.OriginsEnv (ssaad.ResultOrigins).
func (e *revEnv) Origins(callee *types.Func) []int {
	o, _ := summary(e, "origins", callee, func(f *ir.Func) []int { return ssaad.ResultOrigins(f, ssaad.EnvOrigins(e)) })
	return o
}

// StoresMemory implements ssaad.OriginsEnv (ssaad.StoresMemory); true
// when unknown, false for a recursive call (its other stores decide).
func (e *revEnv) StoresMemory(callee *types.Func) bool {
	if e.busy["stores "+callee.FullName()] {
		return false
	}
	s, ok := summary(e, "stores", callee, func(f *ir.Func) bool {
		return ssaad.StoresMemory(f, func(c *ir.Callee) bool { return c.Func == nil || c.Invoke || e.StoresMemory(c.Func) })
	})
	return !ok || s
}

// Effects implements simplify.Env (simplify.Summarize), nil while
// callee's summary is being computed.
func (e *revEnv) Effects(callee *types.Func) *simplify.Effects {
	fx, _ := summary(e, "effects", callee, func(f *ir.Func) *simplify.Effects { return simplify.Summarize(f, e) })
	return fx
}

// Body implements simplify.Env: a fresh lowering of callee, or nil.
func (e *revEnv) Body(callee *types.Func) *ir.Func {
	f, diags := e.prog.Lower(callee)
	if len(diags) > 0 {
		return nil
	}
	return f
}

// FreshStores implements ssaad.OriginsEnv (ssaad.StoresOnlyFresh); false
// when unknown.
func (e *revEnv) FreshStores(callee *types.Func) bool {
	s, _ := summary(e, "fresh", callee, func(f *ir.Func) bool { return ssaad.StoresOnlyFresh(f, ssaad.EnvOrigins(e)) })
	return s
}

// Aliased implements ssaad.AliasEnv.
func (e *revEnv) Aliased(callee *types.Func, same []int) *types.Func {
	return e.prog.Aliased(callee, same)
}

// slicesGrow is slices.Grow for the interpreter (reverse mode reserves
// tape space with it).
func slicesGrow(args []interp.Value) ([]interp.Value, error) {
	s, n := args[0].(interp.Slice), args[1].(int)
	if n < 0 {
		return nil, fmt.Errorf("slices.Grow: negative n %d", n)
	}
	return []interp.Value{interp.Slice{Elems: slices.Grow(s.Elems, n)}}, nil
}

// slicesClone is slices.Clone for the interpreter (reverse mode saves the
// final contents of parameters with it).
func slicesClone(args []interp.Value) ([]interp.Value, error) {
	out := interp.Slice{Elems: slices.Clone(args[0].(interp.Slice).Elems)}
	for i, e := range out.Elems {
		out.Elems[i] = interp.NewVar(e).Load() // a struct or array, by value
	}
	return []interp.Value{out}, nil
}

// machine returns an interpreter for f and the derivatives e generated:
// the functions they call, lowered, resolve their static calls.
func (e *revEnv) machine(fs ...*ir.Func) *interp.Machine {
	m := &interp.Machine{Funcs: map[*types.Func]*ir.Func{}, Derived: e.derived, Natives: map[string]interp.Native{"slices.Grow": slicesGrow, "slices.Clone": slicesClone,
		"github.com/gadgen/gadgen/revolve.New":              interp.GoFunc(revolve.New),
		"(*github.com/gadgen/gadgen/revolve.Schedule).Take": interp.GoFunc((*revolve.Schedule).Take),
		"(*github.com/gadgen/gadgen/revolve.Schedule).Back": interp.GoFunc((*revolve.Schedule).Back)}}
	var visit func(f *ir.Func)
	visit = func(f *ir.Func) {
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				c := v.Callee
				if v.Op != ir.OpCall || c.Func == nil || c.Invoke || m.Funcs[c.Func] != nil || c.Primitive() != nil {
					continue
				}
				if body, diags := e.prog.Lower(c.Func); len(diags) == 0 {
					m.Funcs[c.Func] = body
					visit(body)
				}
			}
		}
	}
	for _, f := range fs {
		visit(f)
	}
	for _, f := range e.derived {
		if f != nil {
			visit(f)
		}
	}
	return m
}
