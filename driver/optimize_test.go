package driver

// This file tests that optimization changes no result beyond rounding:
// every derivative of the examples and of the end-to-end cases is
// generated with optimization on and off (-O0), and both run, in the IR
// interpreter, on the same seeded random inputs.

import (
	"fmt"
	"go/types"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
)

// generatedIR is what one run of the driver generated.
type generatedIR struct {
	// directives are the functions the directives asked for, by
	// package path and name, in directive order.
	directives []generatedFunc
	// derived holds every generated function by package path and name.
	derived map[string]map[string]*ir.Func
	// lower lowers a function of the program (a primal callee).
	lower func(*types.Func) *ir.Func
}

type generatedFunc struct {
	pkg, name string
	fn        *ir.Func
}

// generateIR runs the driver on patterns in dir, with or without
// optimization, and returns the functions it generated.
func generateIR(t *testing.T, dir string, noOpt bool, patterns ...string) *generatedIR {
	t.Helper()
	var out *generatedIR
	cfg := &Config{Dir: dir, Patterns: patterns, Check: true, NoOptimize: noOpt, Modes: DefaultModes()}
	cfg.generated = func(g *generator) {
		out = &generatedIR{derived: map[string]map[string]*ir.Func{}}
		out.lower = func(fn *types.Func) *ir.Func {
			f, diags := g.prog.Lower(fn)
			if len(diags) > 0 {
				return nil
			}
			return f
		}
		add := func(j *job) {
			if j.fn == nil {
				return
			}
			pkg := j.out.pkg.PkgPath
			if out.derived[pkg] == nil {
				out.derived[pkg] = map[string]*ir.Func{}
			}
			out.derived[pkg][j.derived.Name] = j.fn
		}
		for _, j := range g.plan.jobs {
			add(j)
			if j.fn != nil {
				out.directives = append(out.directives, generatedFunc{j.out.pkg.PkgPath, j.derived.Name, j.fn})
			}
		}
		for _, j := range g.jobs {
			add(j)
		}
	}
	Run(cfg)
	if out == nil {
		t.Fatalf("gadgen (-O0 %v) generated nothing in %s", noOpt, dir)
	}
	return out
}

// machine returns an interpreter for the functions generated into pkg:
// the generated ones by name, and the primal functions they call,
// lowered.
func (g *generatedIR) machine(pkg string) *interp.Machine {
	m := &interp.Machine{Derived: g.derived[pkg], Funcs: map[*types.Func]*ir.Func{}, MaxSteps: 1_000_000,
		Natives: map[string]interp.Native{"fmt.Sprintf": sprintf}}
	var visit func(f *ir.Func)
	visit = func(f *ir.Func) {
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				c := v.Callee
				if v.Op != ir.OpCall || c.Func == nil || c.Invoke || m.Funcs[c.Func] != nil ||
					c.Func.Pkg() != nil && c.Func.Pkg().Path() == "math" {
					continue
				}
				if body := g.lower(c.Func); body != nil {
					m.Funcs[c.Func] = body
					visit(body)
				}
			}
		}
	}
	for _, f := range g.derived[pkg] {
		visit(f)
	}
	return m
}

// TestOptimizationSameNumbers: for every directive of the examples and
// the end-to-end cases, the derivative generated with optimization and
// the one generated without it give the same results and leave the same
// values in their arguments, to 1e-12 relative (1e-5 for float32, where
// sums taken in another order differ by roundings of 6e-8), on random
// inputs; or both panic.
func TestOptimizationSameNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("generates every case twice")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	patterns := []string{"./examples/...", "./internal/e2e/cases/..."}
	on := generateIR(t, root, false, patterns...)
	off := generateIR(t, root, true, patterns...)
	if len(on.directives) != len(off.directives) {
		t.Fatalf("%d derivatives generated with optimization, %d without", len(on.directives), len(off.directives))
	}
	compared, tensors := 0, 0
	for i, d := range on.directives {
		t.Run(filepath.Base(d.pkg)+"."+d.name, func(t *testing.T) {
			if takesTensors(d.fn) {
				// Random values of its type are no tensors: the
				// interpreter panics in the runtime at once.
				tensors++
				t.Skip("takes tensors, which randomArgs does not make")
			}
			fOff := off.directives[i].fn
			if off.directives[i].name != d.name {
				t.Fatalf("generated without optimization: %s", off.directives[i].name)
			}
			mOn, mOff := on.machine(d.pkg), off.machine(d.pkg)
			ran := false
			for trial := range 4 {
				argsOn := randomArgs(d.fn, uint64(trial))
				argsOff := randomArgs(fOff, uint64(trial))
				rOn, errOn := mOn.Call(d.fn, argsOn...)
				rOff, errOff := mOff.Call(fOff, argsOff...)
				if errOn != nil || errOff != nil {
					if unsupported(errOn) || unsupported(errOff) {
						t.Skipf("the interpreter cannot run it: %v; %v", errOn, errOff)
					}
					if (errOn == nil) != (errOff == nil) {
						t.Errorf("trial %d: optimized: %v; unoptimized: %v", trial, errOn, errOff)
					}
					continue
				}
				ran = true
				if msg := differ(interp.Tuple(rOn), interp.Tuple(rOff)); msg != "" {
					t.Errorf("trial %d: results differ: %s", trial, msg)
				}
				if msg := differ(interp.Tuple(argsOn), interp.Tuple(argsOff)); msg != "" {
					t.Errorf("trial %d: arguments after the call differ: %s", trial, msg)
				}
			}
			if ran {
				compared++
			}
		})
	}
	t.Logf("%d of %d derivatives compared on random inputs (%d take tensors)", compared, len(on.directives), tensors)
	if n := len(on.directives) - tensors; compared < n/2 {
		t.Errorf("only %d of %d derivatives without tensors ran without panicking on random inputs", compared, n)
	}
}

// takesTensors reports whether a parameter of f holds tensors.
func takesTensors(f *ir.Func) bool {
	for _, p := range f.Params {
		if holdsTensor(p.Type, map[types.Type]bool{}) {
			return true
		}
	}
	return false
}

func holdsTensor(t types.Type, seen map[types.Type]bool) bool {
	if ir.IsTensor(t) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return holdsTensor(u.Elem(), seen)
	case *types.Slice:
		return holdsTensor(u.Elem(), seen)
	case *types.Array:
		return holdsTensor(u.Elem(), seen)
	case *types.Struct:
		for f := range u.Fields() {
			if holdsTensor(f.Type(), seen) {
				return true
			}
		}
	}
	return false
}

// sprintf is fmt.Sprintf for the interpreter: the panic messages of the
// cases format with it.
func sprintf(args []interp.Value) ([]interp.Value, error) {
	var xs []any
	for _, a := range args[1:] {
		if s, ok := a.(interp.Slice); ok { // called with ...
			for _, e := range s.Elems {
				xs = append(xs, e.(interp.Iface).V)
			}
			continue
		}
		xs = append(xs, a.(interp.Iface).V)
	}
	return []interp.Value{fmt.Sprintf(args[0].(string), xs...)}, nil
}

func unsupported(err error) bool {
	e, ok := err.(*interp.Error)
	return ok && (e.Kind == interp.Unsupported || e.Kind == interp.Invalid)
}

// randomArgs returns random arguments for f's parameters, the same for the
// same seed and parameter types: floats standard normal, integers in
// [0, 3), slices of length 4, pointers to fresh variables.
func randomArgs(f *ir.Func, seed uint64) []interp.Value {
	rnd := rand.New(rand.NewPCG(seed, 77))
	args := make([]interp.Value, len(f.Params))
	for i, p := range f.Params {
		args[i] = randomValue(rnd, p.Type, 0)
	}
	return args
}

func randomValue(rnd *rand.Rand, t types.Type, depth int) interp.Value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch z := interp.Zero(t).(type) {
		case float64:
			return rnd.NormFloat64()
		case float32:
			return float32(rnd.NormFloat64())
		case int:
			return rnd.IntN(3)
		case int64:
			return int64(rnd.IntN(3))
		case int32:
			return int32(rnd.IntN(3))
		case uint:
			return uint(rnd.IntN(3))
		case bool:
			return rnd.IntN(2) == 0
		default:
			return z
		}
	case *types.Slice:
		if depth > 3 {
			return interp.Slice{}
		}
		s := interp.Slice{Elems: make([]interp.Value, 4)}
		for i := range s.Elems {
			s.Elems[i] = randomValue(rnd, u.Elem(), depth+1)
		}
		return s
	case *types.Pointer:
		if depth > 3 {
			return interp.Pointer{}
		}
		return interp.NewVar(randomValue(rnd, u.Elem(), depth+1))
	case *types.Struct:
		s := &interp.Struct{Fields: make([]interp.Value, u.NumFields())}
		for i := range s.Fields {
			s.Fields[i] = randomValue(rnd, u.Field(i).Type(), depth+1)
		}
		return s
	case *types.Array:
		a := &interp.Array{Elems: make([]interp.Value, u.Len())}
		for i := range a.Elems {
			a.Elems[i] = randomValue(rnd, u.Elem(), depth+1)
		}
		return a
	}
	return interp.Zero(t)
}

// differ returns "" when x and y are equal, floats to 1e-12 relative
// (NaN equal to NaN), and otherwise what differs.
func differ(x, y interp.Value) string {
	switch x := x.(type) {
	case float64:
		yf, _ := y.(float64)
		if close(x, yf) {
			return ""
		}
		return fmt.Sprintf("%v and %v", x, yf)
	case float32:
		// Reordered sums differ by float32 roundings (6e-8 each).
		yf, _ := y.(float32)
		if math.Abs(float64(x-yf)) <= 1e-5*math.Max(1, math.Max(math.Abs(float64(x)), math.Abs(float64(yf)))) {
			return ""
		}
		return fmt.Sprintf("%v and %v", x, yf)
	case interp.Tuple:
		return differAll(x, y.(interp.Tuple))
	case interp.Slice:
		return differAll(x.Elems, y.(interp.Slice).Elems)
	case *interp.Struct:
		return differAll(x.Fields, y.(*interp.Struct).Fields)
	case *interp.Array:
		return differAll(x.Elems, y.(*interp.Array).Elems)
	case interp.Pointer:
		yp := y.(interp.Pointer)
		if x.IsNil() || yp.IsNil() {
			if x.IsNil() != yp.IsNil() {
				return "nil and non-nil pointers"
			}
			return ""
		}
		return differ(x.Load(), yp.Load())
	}
	if !interp.Identical(x, y) {
		return fmt.Sprintf("%s and %s", interp.Format(x), interp.Format(y))
	}
	return ""
}

func differAll(xs, ys []interp.Value) string {
	if len(xs) != len(ys) {
		return fmt.Sprintf("lengths %d and %d", len(xs), len(ys))
	}
	for i := range xs {
		if msg := differ(xs[i], ys[i]); msg != "" {
			return fmt.Sprintf("[%d]: %s", i, msg)
		}
	}
	return ""
}

func close(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
