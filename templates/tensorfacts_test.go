package templates

import (
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

// TestTensorOps checks each TensorOp against the function of package
// tensorops that it names, loaded from source (gadgen does not import the
// runtime): the function exists and is exported; each argument index a
// fact gives is a parameter of the function (not its variadic one) of the
// type the fact needs, a tensor (*tensorops.Tensor) or, for Scalars, a
// float64; an elementwise function's Elementwise and Scalars are all its
// parameters; the facts about its result are about a tensor; the fused
// form that Accumulate names takes a tensor and the function's parameters
// and is an in-place accumulation, whose result is that tensor. A renamed
// or removed runtime function, or an index moved to a parameter of
// another type, fails here instead of silently disabling a rewrite (or
// enabling a wrong one). A signature cannot tell one tensor parameter
// from another: an index moved to another tensor is left to the tests of
// the rewrites and of their output (internal/e2e's TestGenerated fails
// when a committed derivative changes).
func TestTensorOps(t *testing.T) {
	pkg, err := importPkg(TensorPkg)
	if err != nil {
		t.Fatalf("import %s: %v", TensorPkg, err)
	}
	tensorName, ok := pkg.Scope().Lookup("Tensor").(*types.TypeName)
	if !ok {
		t.Fatalf("%s has no type Tensor", TensorPkg)
	}
	tensor := types.NewPointer(tensorName.Type())
	isTensor := func(typ types.Type) bool { return types.Identical(typ, tensor) }
	qual := types.RelativeTo(pkg)
	// function returns the signature of the exported function name of
	// the runtime.
	function := func(t *testing.T, name string) *types.Signature {
		t.Helper()
		fn, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			t.Errorf("tensorops has no exported function %s", name)
			return nil
		}
		return fn.Signature()
	}
	returnsTensor := func(sig *types.Signature) bool {
		return sig.Results().Len() == 1 && isTensor(sig.Results().At(0).Type())
	}
	if sig := function(t, ReleaseFunc); sig != nil && sig.Results().Len() != 0 {
		t.Errorf("ReleaseFunc %s returns %v, want nothing", ReleaseFunc, sig.Results())
	}
	for _, r := range inPlaceRules {
		if op := TensorOpOf(r.Name); !slices.Equal(op.Aliases, []int{0}) || op.Fresh || op.PassThrough != nil {
			t.Errorf("in-place %s, whose result is its buffer dst: Aliases %v, Fresh %v, PassThrough %v; want Aliases [0] alone",
				r.Name, op.Aliases, op.Fresh, op.PassThrough)
		}
	}
	for _, op := range tensorOps {
		t.Run(op.Name, func(t *testing.T) {
			sig := function(t, op.Name)
			if sig == nil {
				return
			}
			params := sig.Params()
			fn := op.Name + strings.TrimPrefix(types.TypeString(sig, qual), "func")
			// args checks that each index that fact gives is a parameter
			// of the function, not its variadic one, of a type that is
			// accepts (what names the type).
			args := func(fact string, idx []int, is func(types.Type) bool, what string) {
				t.Helper()
				for _, i := range idx {
					switch {
					case i < 0 || i >= params.Len():
						t.Errorf("%s gives argument %d, which %s lacks", fact, i, fn)
					case sig.Variadic() && i == params.Len()-1:
						t.Errorf("%s gives argument %d, the variadic parameter of %s", fact, i, fn)
					case !is(params.At(i).Type()):
						t.Errorf("%s gives argument %d of %s: want %s", fact, i, fn, what)
					}
				}
			}
			args("Elementwise", op.Elementwise, isTensor, "a tensor")
			args("Scalars", op.Scalars, isFloat64, "a float64")
			args("ShapeOf", op.ShapeOf, isTensor, "a tensor")
			args("ShapeOnly", op.ShapeOnly, isTensor, "a tensor")
			args("NilLike", op.NilLike, isTensor, "a tensor")
			args("PassThrough", op.PassThrough, isTensor, "a tensor")
			args("Aliases", op.Aliases, isTensor, "a tensor")
			if op.SliceThrough {
				args("SliceThrough", []int{0, 1}, isTensor, "a tensor")
			}
			if op.Elementwise != nil {
				all := slices.Sorted(slices.Values(slices.Concat(op.Elementwise, op.Scalars)))
				want := make([]int, params.Len())
				for i := range want {
					want[i] = i
				}
				if !slices.Equal(all, want) || sig.Variadic() {
					t.Errorf("Elementwise %v and Scalars %v are not the parameters of %s, each once", op.Elementwise, op.Scalars, fn)
				}
			}
			if (op.Fuse || op.Scalars != nil) && op.Elementwise == nil || op.Infix != "" && !op.Fuse {
				t.Errorf("Fuse %v, Infix %q, Scalars %v with Elementwise %v: want them only for an elementwise function, Infix only with Fuse",
					op.Fuse, op.Infix, op.Scalars, op.Elementwise)
			}
			resultFacts := op.Elementwise != nil || op.ShapeOf != nil || op.Fresh || op.PassThrough != nil ||
				op.Aliases != nil || op.NilIdentity || op.SliceThrough || op.Accumulate != ""
			if resultFacts && !returnsTensor(sig) {
				t.Errorf("facts about the result of %s: want a tensor", fn)
			}
			if op.PassThrough != nil && (op.Fresh || op.Aliases != nil) {
				t.Errorf("PassThrough %v with Fresh %v or Aliases %v: want PassThrough alone", op.PassThrough, op.Fresh, op.Aliases)
			}
			tensors := 0
			for v := range params.Variables() {
				if isTensor(v.Type()) {
					tensors++
				}
			}
			if op.NilIdentity && tensors < 2 {
				t.Errorf("NilIdentity of %s: want two tensor operands, a nil one and the one the result is", fn)
			}
			if _, ok := Lookup(TensorPkg, op.Name); ok && op.ReadOnly {
				t.Errorf("ReadOnly %s is a primitive, pure already", op.Name)
			}
			if op.Accumulate != "" {
				checkAccumulate(t, op, sig, function(t, op.Accumulate), tensor, qual)
			}
		})
	}
}

// checkAccumulate checks the fused form acc of the function op, with
// signature sig, that op.Accumulate names: acc(dst, args…) for op's
// args, a tensor dst that the result is, an in-place accumulation.
func checkAccumulate(t *testing.T, op *TensorOp, sig, acc *types.Signature, tensor types.Type, qual types.Qualifier) {
	t.Helper()
	if acc == nil {
		return
	}
	params := []*types.Var{types.NewParam(token.NoPos, nil, "dst", tensor)}
	for v := range sig.Params().Variables() {
		params = append(params, v)
	}
	want := types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())
	if !types.Identical(acc, want) {
		t.Errorf("Accumulate names %[1]s%[2]s: want %[1]s%[3]s", op.Accumulate,
			strings.TrimPrefix(types.TypeString(acc, qual), "func"), strings.TrimPrefix(types.TypeString(want, qual), "func"))
	}
	if inPlaceByName[key(TensorPkg, op.Accumulate)] == nil {
		t.Errorf("Accumulate names %s: want an in-place accumulation (inplace.go)", op.Accumulate)
	}
}
