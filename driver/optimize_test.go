package driver

// This file tests that optimization changes no result beyond rounding:
// every derivative of the examples and of the end-to-end cases is
// generated with optimization on and off (-O0), and both run, in the IR
// interpreter, on the same seeded random inputs.

import (
	"fmt"
	"go/types"
	"math"
	"path/filepath"
	"testing"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/revolve"
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
	// primal is the function differentiated, lowered (nil when it does
	// not lower).
	primal *ir.Func
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
				out.directives = append(out.directives, generatedFunc{j.out.pkg.PkgPath, j.derived.Name, j.fn, out.lower(j.req.Target)})
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

// machine returns an interpreter for root and the functions generated
// into pkg: the generated ones by name, the primal functions they call
// (and root calls: it may be a function of pkg's that another of the same
// name shadows in g.derived), lowered,
// and natives: the tensor runtime's functions (tensorNatives) and the
// few functions of the standard library generated code calls.
func (g *generatedIR) machine(pkg string, natives map[string]interp.Native, root *ir.Func) *interp.Machine {
	m := &interp.Machine{Derived: g.derived[pkg], Funcs: map[*types.Func]*ir.Func{}, MaxSteps: 1_000_000, Natives: natives}
	var visit func(f *ir.Func)
	visit = func(f *ir.Func) {
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				c := v.Callee
				if v.Op != ir.OpCall || c.Func == nil || c.Invoke || m.Funcs[c.Func] != nil || natives[c.Func.FullName()] != nil ||
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
	visit(root)
	for _, f := range g.derived[pkg] {
		visit(f)
	}
	return m
}

// natives returns the natives of every machine: tensorNatives, package
// revolve's schedule (an opaque pointer in the interpreter), and
// fmt.Sprintf, slices.Grow and slices.Clone.
func natives() map[string]interp.Native {
	m := tensorNatives()
	m["fmt.Sprintf"] = sprintf
	m["slices.Grow"] = slicesGrow
	m["slices.Clone"] = slicesClone
	m["github.com/gadgen/gadgen/revolve.New"] = interp.GoFunc(revolve.New)
	m["(*github.com/gadgen/gadgen/revolve.Schedule).Take"] = interp.GoFunc((*revolve.Schedule).Take)
	m["(*github.com/gadgen/gadgen/revolve.Schedule).Back"] = interp.GoFunc((*revolve.Schedule).Back)
	return m
}

// notCompared lists the derivatives TestOptimizationSameNumbers may leave
// uncompared, each with the reason: none of the candidate sizes of its
// arguments lets it run (it panics with all of them). Every other
// derivative must run in the interpreter, optimized and not, on random
// arguments; a listed one that runs fails the test (remove it).
var notCompared = map[string]string{
	// Tensor shapes the candidates (argPlans) lack: 4-D inputs and
	// kernels with matching channels, seeds of a convolution's or a
	// pooling's output shape, offsets along axis 1 past the row shapes,
	// attention heads of width 4.
	"cnn.LossGrad":                           lackedShapes,
	"cnn.LossJVP":                            lackedShapes,
	"cnn.InputLossGrad":                      lackedShapes,
	"cnn.InputLossHVP":                       lackedShapes,
	"cnn.AtrousLossGrad":                     lackedShapes,
	"cnn.AtrousLossJVP":                      lackedShapes,
	"cnn.AtrousLossTaylor":                   lackedShapes,
	"tensorcalls.ConvLossJVP":                lackedShapes,
	"tensorcalls.ConvLossGrad":               lackedShapes,
	"tensorcalls.ConvLossTaylor":             lackedShapes,
	"tensorcalls.ConvPtrLossJVP":             lackedShapes,
	"tensorcalls.ConvPtrLossGrad":            lackedShapes,
	"tensorrules.Conv2DGradXOpJVP":           lackedShapes,
	"tensorrules.Conv2DGradXOpVJP":           lackedShapes,
	"tensorrules.Conv2DGradXOpTaylor":        lackedShapes,
	"tensorrules.Conv2DGradWOpJVP":           lackedShapes,
	"tensorrules.Conv2DGradWOpVJP":           lackedShapes,
	"tensorrules.Conv2DGradWOpTaylor":        lackedShapes,
	"tensorrules.Conv2DDilatedGradXOpJVP":    lackedShapes,
	"tensorrules.Conv2DDilatedGradXOpVJP":    lackedShapes,
	"tensorrules.Conv2DDilatedGradXOpTaylor": lackedShapes,
	"tensorrules.Conv2DDilatedGradWOpJVP":    lackedShapes,
	"tensorrules.Conv2DDilatedGradWOpVJP":    lackedShapes,
	"tensorrules.Conv2DDilatedGradWOpTaylor": lackedShapes,
	"tensorrules.MaxPool2DGradOpJVP":         lackedShapes,
	"tensorrules.MaxPool2DGradOpVJP":         lackedShapes,
	"tensorrules.MaxPool2DGradOpTaylor":      lackedShapes,
	"tensorrules.AvgPool2DGradOpJVP":         lackedShapes,
	"tensorrules.AvgPool2DGradOpVJP":         lackedShapes,
	"tensorrules.AvgPool2DGradOpTaylor":      lackedShapes,
	"tensorrules.ConcatGradOpVJP":            lackedShapes,
	"tensorrules.SliceBroadcastGradOpVJP":    lackedShapes,
	"transformer.LossGrad":                   lackedShapes,
	"transformer.LossJVP":                    lackedShapes,
	// A receiver of tensors of different shapes (Fit32's A [n 3] and
	// Y [n 1]) with a shape fixed by the code (x viewed as [3 1]).
	"tensorcalls.Fit32.FuncGrad":   mixedShapes,
	"tensorcalls.Fit32.FuncJVP":    mixedShapes,
	"tensorcalls.Fit32.FuncTaylor": mixedShapes,
	// Slices and pointers nested deeper than randomArgs goes (depth 3),
	// which it leaves empty and nil: a tower's blocks' Post, Nested's
	// P.V.
	"tensorhess.TowerLossGrad":      tooDeep,
	"tensorhess.TowerLossHVP":       tooDeep,
	"tensorhess.TowerLossHessian":   tooDeep,
	"tensorhess.TowerLossHessDiag":  tooDeep,
	"tensorhess.TowerLossLaplacian": tooDeep,
	"tensorhess.TowerLossVGrad":     tooDeep,
	"models.NestedGrad":             tooDeep,
	"models.NestedJVP":              tooDeep,
	// The springs example's rule relating the lengths of its slices
	// ("springs: dimension mismatch").
	"springs.Chain.EnergyJVP":       relatedLengths,
	"taylor.springsEnergyHessian":   relatedLengths,
	"taylor.springsEnergyHVP":       relatedLengths,
	"taylor.springsEnergyLaplacian": relatedLengths,
	// Panics by design, which the case checks: a positive input the
	// standard normal values are not, or a stub body.
	"panics.LogSumJVP":             panicsByDesign,
	"panics.LogSumGrad":            panicsByDesign,
	"taylor.panicsLogSumHessian":   panicsByDesign,
	"taylor.panicsLogSumHVP":       panicsByDesign,
	"taylor.panicsLogSumLaplacian": panicsByDesign,
	"nesting.GradDotGrad":          panicsByDesign,
	"nesting.SlopeSumGrad":         panicsByDesign,
	"nesting.PeakRGrad":            panicsByDesign,
	"nesting.PeakFGrad":            panicsByDesign,
	"nesting.SelfSlopeGrad":        panicsByDesign,
	"nesting.ResidualGrad":         panicsByDesign,
	"nesting.CurvatureGrad":        panicsByDesign,
}

// Reasons of notCompared.
const (
	lackedShapes   = "tensor shapes the candidates lack"
	mixedShapes    = "tensors of different shapes in one parameter"
	tooDeep        = "arguments nested deeper than randomArgs goes"
	relatedLengths = "slices of related lengths"
	panicsByDesign = "panics by design"
)

// knownDiffer lists the derivatives whose optimized and unoptimized
// versions are known to give different numbers, with the difference: a
// bug of the optimizer to fix, listed so that the test stays green and
// fails once the bug is fixed (then remove the entry). Their trials still
// run and their differences are logged.
var knownDiffer = map[string]string{
	"models.TrajectoryGrad": "kBar is NaN, not 0, for steps = 0",
}

// TestOptimizationSameNumbers: for every directive of the examples and
// the end-to-end cases, the derivative generated with optimization and
// the one generated without it give the same results and leave the same
// values in their arguments, to 1e-12 relative (1e-5 for float32, where
// sums taken in another order differ by roundings of 6e-8), on random
// inputs; or both panic. The arguments' sizes (the length of slices, the
// shapes of tensors) are the first of a list of candidates (argPlans)
// with which the optimized derivative runs without panicking. A
// derivative the interpreter cannot run (interp.Invalid or
// interp.Unsupported), or that panics with every candidate, fails the
// test unless notCompared lists it (then it is skipped with the reason),
// and so does one whose trials all fail though findPlan's did; at least
// 95% of all derivatives must be compared, and there must be some.
func TestOptimizationSameNumbers(t *testing.T) {
	// -short leaves out generating every case twice; CI runs it.
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
	if len(on.directives) == 0 {
		t.Fatalf("no derivative generated from %v: nothing to compare", patterns)
	}
	nat := natives()
	compared := 0
	seen := map[string]bool{}
	for i, d := range on.directives {
		name := filepath.Base(d.pkg) + "." + d.name
		if d.fn.Recv != nil {
			name = filepath.Base(d.pkg) + "." + recvName(d.fn.Recv) + "." + d.name
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			fOff := off.directives[i].fn
			if off.directives[i].name != d.name {
				t.Fatalf("generated without optimization: %s", off.directives[i].name)
			}
			reason, listed := notCompared[name]
			mOn, mOff := on.machine(d.pkg, nat, d.fn), off.machine(d.pkg, nat, fOff)
			plan, err := findPlan(mOn, d.fn, d.primal)
			if err != nil {
				switch {
				case listed:
					// The explicit list of derivatives the interpreter cannot run on the
					// candidate sizes, each with its reason; a listed one that runs fails.
					t.Skipf("on the list notCompared (%s): %v", reason, err)
				case unsupported(err):
					t.Fatalf("the interpreter cannot run it: %v", err)
				}
				t.Fatalf("no trial ran: it panics with every candidate size of its arguments (teach argPlans or randomArgs its sizes, or list it in notCompared with the reason): %v", err)
			}
			if listed {
				t.Errorf("it runs, but notCompared lists it (%s): remove it from the list", reason)
			}
			ran, differs := 0, 0
			report := t.Errorf
			if _, ok := knownDiffer[name]; ok {
				report = func(format string, args ...any) {
					differs++
					t.Logf("known difference (knownDiffer): "+format, args...)
				}
			}
			var lastErr error
			for trial := range 4 {
				argsOn := randomArgs(d.fn, plan, uint64(trial))
				argsOff := randomArgs(fOff, plan, uint64(trial))
				rOn, errOn := mOn.Call(d.fn, argsOn...)
				rOff, errOff := mOff.Call(fOff, argsOff...)
				if unsupported(errOn) || unsupported(errOff) {
					t.Fatalf("trial %d: the interpreter cannot run it: %v; %v", trial, errOn, errOff)
				}
				if errOn != nil || errOff != nil {
					if (errOn == nil) != (errOff == nil) {
						t.Errorf("trial %d: optimized: %v; unoptimized: %v", trial, errOn, errOff)
					}
					lastErr = errOn
					continue
				}
				ran++
				if msg := differ(interp.Tuple(rOn), interp.Tuple(rOff)); msg != "" {
					report("trial %d (%s): results differ: %s", trial, plan, msg)
				}
				if msg := differ(interp.Tuple(argsOn), interp.Tuple(argsOff)); msg != "" {
					report("trial %d (%s): arguments after the call differ: %s", trial, plan, msg)
				}
			}
			if ran == 0 {
				// findPlan ran the optimized derivative on trial 0's
				// arguments without an error: a derivative none of whose
				// trials runs now is not compared, and only notCompared
				// may leave one so.
				t.Fatalf("no trial ran (%s), though findPlan's did: %v", plan, lastErr)
			}
			if why, ok := knownDiffer[name]; ok && differs == 0 {
				t.Errorf("knownDiffer lists it (%s), but the numbers are the same: remove it from the list", why)
			}
			compared++
		})
	}
	for name := range knownDiffer {
		if !seen[name] {
			t.Errorf("knownDiffer lists %s, which no directive generates", name)
		}
	}
	for name := range notCompared {
		if !seen[name] {
			t.Errorf("notCompared lists %s, which no directive generates", name)
		}
	}
	total := len(on.directives)
	t.Logf("%d of %d derivatives compared on random inputs (%d on the list notCompared)", compared, total, len(notCompared))
	if compared*100 < 95*total {
		t.Errorf("only %d of %d derivatives compared on random inputs, want at least 95%%", compared, total)
	}
}

// recvName returns the name of the type of a method's receiver, without
// its pointer.
func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
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
	case interp.Opaque:
		yo, ok := y.(interp.Opaque)
		if !ok {
			return fmt.Sprintf("%s and %s", interp.Format(x), interp.Format(y))
		}
		return differOpaque(x, yo)
	case interp.Pointer:
		yp, ok := y.(interp.Pointer)
		if !ok {
			return fmt.Sprintf("%s and %s", interp.Format(x), interp.Format(y))
		}
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
