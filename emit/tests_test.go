package emit_test

// Tests of RenderTests and of File.Helpers: test files described by hand,
// compared with golden files (go test ./emit -update rewrites them). The
// end-to-end cases (internal/e2e) compile and run such tests.

import (
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/emit"
	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
)

// testFunc returns the function name of package pkg with the parameters
// params (names and types) and one result res, a method of recv when recv
// is not nil.
func testFunc(pkg *types.Package, recv types.Type, name string, res types.Type, params ...any) *types.Func {
	var vars []*types.Var
	for i := 0; i < len(params); i += 2 {
		vars = append(vars, types.NewParam(token.NoPos, pkg, params[i].(string), params[i+1].(types.Type)))
	}
	var rv *types.Var
	if recv != nil {
		rv = types.NewParam(token.NoPos, pkg, "", recv)
	}
	sig := types.NewSignatureType(rv, nil, nil, types.NewTuple(vars...), types.NewTuple(types.NewParam(token.NoPos, pkg, "", res)), false)
	return types.NewFunc(token.NoPos, pkg, name, sig)
}

// testParams describes the parameters of fn, named names (a receiver
// first), varied as varied says.
func testParams(fn *types.Func, names []string, varied ...bool) []emit.TestParam {
	var out []emit.TestParam
	for i, p := range ir.Params(fn) {
		out = append(out, emit.TestParam{Name: names[i], Type: p.Type(), Varied: varied[i]})
	}
	return out
}

func TestRenderTests(t *testing.T) {
	pkg := types.NewPackage(pkgPath, "p")
	f64 := types.Typ[types.Float64]
	sl := types.NewSlice(f64)
	spring := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Spring", nil), types.NewStruct(nil, nil), nil)
	tpkg := types.NewPackage("github.com/gadgen/gadgen/tensorops", "tensorops")
	tensor := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, tpkg, "Tensor", nil), types.NewStruct(nil, nil), nil))

	pick := testFunc(pkg, nil, "Pick", f64, "x", sl)
	two := testFunc(pkg, nil, "Two", f64, "a", f64, "x", sl)
	energy := testFunc(pkg, spring, "Energy", f64, "x", sl)
	scaled := testFunc(pkg, nil, "Scaled", tensor, "x", tensor, "s", f64)

	twoParams := testParams(two, []string{"a", "x"}, true, true)
	jvp := emit.TestDeriv{Name: "TwoJVP", Mode: "jvp"}
	grad := emit.TestDeriv{Name: "TwoGrad", Mode: "grad"}
	scaledArgs := []emit.TestArg{{Kind: emit.ArgPrimal, Param: 0}, {Kind: emit.ArgTangent, Param: 0}, {Kind: emit.ArgPrimal, Param: 1}}
	scaledJVP := emit.TestDeriv{Name: "ScaledJVP", Mode: "jvp", Args: append(scaledArgs[:2:2], emit.TestArg{Kind: emit.ArgPrimal, Param: 1}, emit.TestArg{Kind: emit.ArgTangent, Param: 1})}
	scaledVJP := emit.TestDeriv{Name: "ScaledVJP", Mode: "vjp", Args: []emit.TestArg{{Kind: emit.ArgPrimal, Param: 0}, {Kind: emit.ArgPrimal, Param: 1}, {Kind: emit.ArgSeed}}}
	scaledParams := testParams(scaled, []string{"x", "s"}, true, true)
	tests := []emit.Test{
		{Name: "TestGadgenPickGrad", Target: pick, Params: testParams(pick, []string{"x"}, true),
			Deriv: emit.TestDeriv{Name: "PickGrad", Mode: "grad", Gonum: true}, Len: 3},
		{Name: "TestGadgenTwoJVP", Target: two, Params: twoParams, Deriv: jvp, Len: 2},
		{Name: "TestGadgenTwoGrad", Target: two, Params: twoParams, Deriv: grad, Len: 2},
		{Name: "TestGadgenSpring_EnergyJVP", Target: energy, Params: testParams(energy, []string{"s", "x"}, false, true),
			Deriv: emit.TestDeriv{Name: "EnergyJVP", Mode: "jvp", Method: true}, Len: 4},
		{Name: "TestGadgenScaledVJP", Target: scaled, Params: scaledParams, Deriv: scaledVJP, Inputs: "scaledInputs", Rand: true},
		{Name: "TestGadgenTwoGradDot", Target: two, Params: twoParams, Deriv: jvp, Dot: &grad, Len: 2},
		{Name: "TestGadgenScaledVJPDot", Target: scaled, Params: scaledParams, Deriv: scaledJVP, Dot: &scaledVJP, Inputs: "scaledInputs"},
	}
	out, err := emit.RenderTests(emit.TestFile{PkgName: "p", PkgPath: pkgPath, Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	checkOutput(t, "tests", out)
}

// TestHelpers: a file holds the helpers that File.Helpers names after
// its functions, and imports math when one uses it (gadDigamma, of package
// templates, whose source its tests check).
func TestHelpers(t *testing.T) {
	fn := irtest.SumSquares(types.NewPackage(pkgPath, "p"))
	render := func(helpers ...string) string {
		t.Helper()
		out, err := emit.Render(emit.File{PkgName: "p", PkgPath: pkgPath, Funcs: []*ir.Func{fn}, Helpers: helpers})
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	checkOutput(t, "helpers", []byte(render("gadApart")))
	if out := render("gadApart", "gadDigamma"); !strings.Contains(out, "\nimport \"math\"\n") || !strings.Contains(out, "\nfunc gadDigamma(") {
		t.Errorf("a file with gadDigamma: want it and the import of math, got:\n%s", out)
	}
	if _, err := emit.Render(emit.File{PkgName: "p", PkgPath: pkgPath, Funcs: []*ir.Func{fn}, Helpers: []string{"gadNone"}}); err == nil {
		t.Errorf("Render with an unknown helper: got no error")
	}
}
