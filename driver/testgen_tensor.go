package driver

// This file defines the checks and the plan of test=NAME, the test that
// gadgen writes for a function of tensors, of structs of tensors or of
// any other parameters that hold floats, at the example arguments that a
// function the user names returns (see emit's tests_tensor.go, which
// writes the test).

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/emit"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// lookupInputs finds the function of test=name for the directive d's
// target: in d's package, or in its test variant (a _test.go file).
func lookupInputs(prog *frontend.Program, d *frontend.Directive, name string) (*types.Func, bool, error) {
	pkg := d.Pkg()
	obj := pkg.Types.Scope().Lookup(name)
	for _, lp := range prog.Roots {
		if obj == nil && lp.ForTest == pkg.PkgPath && lp.Name == pkg.Name && lp.Types != nil {
			obj = lp.Types.Scope().Lookup(name)
		}
	}
	ps := ssaad.Params(d.Target)
	var want []string
	for i, p := range ps {
		want = append(want, ssaad.ParamNames(d.Target)[i]+" "+typeString(p.Type(), d.Target.Pkg()))
	}
	wantSig := fmt.Sprintf("func %s(r *rand.Rand) (%s), with math/rand/v2, or with no parameters, returning example arguments of %s",
		name, strings.Join(want, ", "), frontend.FuncName(d.Target))
	if d.Target.Type().(*types.Signature).Recv() != nil {
		wantSig += " (its receiver first)"
	}
	fn, ok := obj.(*types.Func)
	if !ok || fn.Type().(*types.Signature).Recv() != nil {
		return nil, false, fmt.Errorf("test=%s: no function %s in package %s or its tests: write %s", name, name, pkg.Name, wantSig)
	}
	sig := fn.Type().(*types.Signature)
	withRand := sig.Params().Len() == 1 && types.TypeString(sig.Params().At(0).Type(), nil) == "*math/rand/v2.Rand"
	okSig := (sig.Params().Len() == 0 || withRand) && sig.Results().Len() == len(ps) && !sig.Variadic() && sig.TypeParams().Len() == 0
	for i := 0; okSig && i < len(ps); i++ {
		// By name: the function may be declared in the test variant, whose
		// types are other objects than the package's.
		okSig = types.TypeString(sig.Results().At(i).Type(), nil) == types.TypeString(ps[i].Type(), nil)
	}
	if !okSig {
		return nil, false, fmt.Errorf("test=%s: want %s; %s has %s", name, wantSig, name, typeString(sig, fn.Pkg()))
	}
	return fn, withRand, nil
}

// checkGenericTest checks that a test=NAME test can be written for req:
// a function with one float or tensor result, not variadic.
func checkGenericTest(req *ssaad.Request) error {
	sig := req.Target.Type().(*types.Signature)
	res := sig.Results()
	switch {
	case req.Options.Gonum:
		return fmt.Errorf("test=NAME checks the generated shapes of tensor functions; for gonum=true, write test=true")
	case sig.Variadic():
		return fmt.Errorf("test= does not support variadic functions; write the test of %s with package gadtest", req.Name)
	case res.Len() != 1 || !ir.IsTensor(res.At(0).Type()) && !isBasic(res.At(0).Type(), types.IsFloat):
		return fmt.Errorf("test= needs a function with one float or tensor result; write the test of %s with package gadtest", req.Name)
	}
	return nil
}

// testArgs returns the arguments of the function that j generates,
// receiver first for a method, from its signature: after each of the
// target's parameters, by name, its derivative if it has one there; then,
// for a VJP, the seed of the result.
func testArgs(j *job) []emit.TestArg {
	derived := j.derived.Sig
	params := ssaad.Params(j.req.Target)
	names := ssaad.ParamNames(j.req.Target)
	var ps []*types.Var
	if r := derived.Recv(); r != nil {
		ps = append(ps, r)
	}
	for v := range derived.Params().Variables() {
		ps = append(ps, v)
	}
	if j.req.Mode == "vjp" {
		ps = ps[:len(ps)-1] // the seed of the one result, last
	}
	var out []emit.TestArg
	k := 0
	for i := range params {
		if k < len(ps) && ps[k].Name() == names[i] {
			out = append(out, emit.TestArg{Kind: emit.ArgPrimal, Param: i})
			k++
		}
		if !j.req.Active[i] || k >= len(ps) || slices.Contains(names, ps[k].Name()) {
			continue
		}
		switch t := ps[k].Type(); {
		case types.Identical(t, params[i].Type()):
			out = append(out, emit.TestArg{Kind: emit.ArgTangent, Param: i})
			k++
		case types.Identical(t, types.NewPointer(params[i].Type())):
			out = append(out, emit.TestArg{Kind: emit.ArgMixed, Param: i})
			k++
		}
	}
	if j.req.Mode == "vjp" {
		out = append(out, emit.TestArg{Kind: emit.ArgSeed})
	}
	return out
}
