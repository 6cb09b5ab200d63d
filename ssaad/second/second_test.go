package second

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
	"github.com/gadgen/gadgen/ssaad/taylor"
)

// composeEnv is the environment of the tests: it names the derivatives
// the helpers ask for, with their real signatures, and records the
// requests. Build fails with buildErr when it is set.
type composeEnv struct {
	irtest.NoCallees
	buildErr error
	builds   []string        // mode and options of each Build
	jets     []ssaad.Options // options of each Taylor-mode request
}

func (e *composeEnv) Build(mode string, opts ssaad.Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	e.builds = append(e.builds, mode+opts.String())
	if e.buildErr != nil {
		return nil, e.buildErr
	}
	req := &ssaad.Request{Mode: mode, Target: callee, Active: active, Options: opts}
	var m ssaad.Mode = reverse.Mode{}
	if mode == "jvp" {
		m = taylor.Mode{Tangent: true}
	}
	sig, err := m.Signature(req)
	if err != nil {
		return nil, err
	}
	name := callee.Name() + m.Suffix()
	return &ir.DerivedFunc{Name: name, Sig: sig, Obj: types.NewFunc(token.NoPos, callee.Pkg(), name, sig)}, nil
}

// Generated: the bodies are not built.
func (e *composeEnv) Generated(*ir.DerivedFunc) *ir.Func { return nil }

func (e *composeEnv) DerivativeWithOptions(mode string, opts ssaad.Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	e.jets = append(e.jets, opts)
	sig, err := taylor.Mode{}.Signature(&ssaad.Request{Mode: mode, Target: callee, Active: active, Options: opts})
	if err != nil {
		return nil, err
	}
	return &ir.DerivedFunc{Name: callee.Name() + "Taylor", Sig: sig}, nil
}

// product builds f(x []float64) float64 { return x[0] * x[1] }, or with
// write, one that first stores x[0] = x[1].
func product(write bool) (*ir.Func, *types.Func) {
	pkg := types.NewPackage("example.com/p", "p")
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", types.NewSlice(irtest.Float64))
	b.Result(irtest.Float64)
	b.At(b.Block("entry"))
	x0 := b.IndexAddr(x, b.Int(0))
	x1 := b.IndexAddr(x, b.Int(1))
	if write {
		b.Store(x0, b.Load(x1))
	}
	b.Return(b.Mul(b.Load(x0), b.Load(x1)))
	return b.F, irtest.FuncOf(b.F)
}

// calls returns the names of the generated functions f calls.
func calls(f *ir.Func) []string {
	var out []string
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Derived != nil {
				out = append(out, v.Callee.Derived.Name)
			}
		}
	}
	return out
}

func TestRoutes(t *testing.T) {
	for _, c := range []struct {
		name     string
		kind     Kind
		write    bool
		buildErr error
		builds   string // the Builds asked for, joined by ","
		calls    string // the generated functions called
		jets     int
		doc      string // what the doc says, or the error
	}{
		{"hvp", HVP, false, nil, "grad,jvp scratch=10 noresultcoefs", "fGradJVP", 0, "by forward mode over reverse mode"},
		{"hvp-fallback", HVP, false, errors.New("reverse mode refuses"), "grad", "fTaylor,fTaylor", 1,
			"(Not by forward over reverse: reverse mode refuses.)"},
		{"hessian", Hessian, false, nil, "grad,jvp scratch=10 noresultcoefs", "fGradJVP", 0, "exactly symmetric"},
		{"hessian-fallback", Hessian, false, errors.New("no"), "grad", "fTaylor,fTaylor", 1, "f2(eᵢ+eⱼ)"},
		{"hessian-writes", Hessian, true, nil, "", "", 0, "evaluates f several times, and f writes through x"},
		{"hvp-writes", HVP, true, nil, "grad,jvp scratch=10 noresultcoefs", "fGradJVP", 0, "by forward mode over reverse mode"},
		{"hvp-writes-fallback", HVP, true, errors.New("no"), "grad", "", 0, "no; //gad:hvp falls back to Taylor jets"},
		{"hessdiag-writes", HessDiag, true, nil, "", "", 0, "//gad:hessdiag evaluates f several times"},
		{"hessdiag", HessDiag, false, nil, "", "fTaylor", 1, "2·f2(eᵢ)"},
		{"laplacian", Laplacian, false, nil, "", "fTaylor", 1, "collapsed Taylor mode"},
	} {
		t.Run(c.name, func(t *testing.T) {
			primal, fn := product(c.write)
			env := &composeEnv{buildErr: c.buildErr}
			h := Helper{c.kind}
			req := &ssaad.Request{Mode: h.Name(), Target: fn, Name: "f" + h.Suffix(), Active: []bool{true}}
			f, errs := h.Transform(primal, req, env)
			if c.calls == "" {
				if len(errs) == 0 || !strings.Contains(fmt.Sprint(errs), c.doc) {
					t.Fatalf("errors %v, want %q", errs, c.doc)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if err := ir.Check(f); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(env.builds, ","); got != c.builds {
				t.Errorf("builds %q, want %q", got, c.builds)
			}
			if got := strings.Join(calls(f), ","); got != c.calls {
				t.Errorf("calls %q, want %q", got, c.calls)
			}
			if len(env.jets) != c.jets {
				t.Errorf("%d jets asked for, want %d", len(env.jets), c.jets)
			}
			if !strings.Contains(f.Doc, c.doc) {
				t.Errorf("doc does not say %q:\n%s", c.doc, f.Doc)
			}
		})
	}
}
