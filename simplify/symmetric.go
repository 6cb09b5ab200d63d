package simplify

// This file defines the symmetric-product rewrite: a matrix times its own
// transpose, aᵀa or aaᵀ, is a symmetric rank-k update (BLAS SYRK), which
// computes one triangle of the result, half of GEMM's multiplications
// (Enzyme-JaX rewrites dot_general(aᵀ, a) the same way). The result is
// marked symmetric at run time, so that the products that consume it use
// SYMM, as those of a generated Hessian (tensorops.Symmetrize) do.

import (
	"go/constant"

	"github.com/gadgen/gadgen/ir"
)

// boolConst returns the value of a boolean constant.
func boolConst(v *ir.Value) (val, ok bool) {
	if v.Op != ir.OpConst || v.Const == nil || v.Const.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(v.Const), true
}

// SymmetricProducts rewrites, in place,
//
//	tensorops.MatMulT(a, a, true, false) → tensorops.Gram(a, true)   // aᵀa
//	tensorops.MatMulT(a, a, false, true) → tensorops.Gram(a, false)  // aaᵀ
//
// where both operands are the same SSA value (MatMul(Transpose(a), a) has
// become MatMulT(a, a, true, false) by the transposed-gemm-operand rule of
// the Derivative pipeline). Each rewrite is reported as "syrk".
//
// Exact up to rounding: Gram(a, t) is defined as MatMulT(a, a, t, !t) —
// the same shapes accepted, nil (zero) for a nil a, batches and vectors
// handed to MatMulT itself. For a matrix, element (i, j) of both is the
// sum over p of a[p][i]·a[p][j] (of a[i][p]·a[j][p] for aaᵀ); the products
// are the same floating-point numbers (multiplication commutes), so SYRK
// differs from GEMM only in the order of the additions, which GEMM leaves
// unspecified too (it changes with blocking and threads). NaNs and
// infinities reach the same elements. SYRK's result is moreover exactly
// symmetric, where GEMM's may differ across the diagonal in the last bit.
//
// It runs in the Final pipeline, on derivatives as emitted: Gram is not a
// primitive and has no derivative rule, so a derivative that is
// differentiated again keeps MatMulT.
func SymmetricProducts(f *ir.Func, env Env) {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if ir.TensorCall(v) != "MatMulT" || v.Callee.Spread || len(v.Args) != 4 || v.Args[0] != v.Args[1] {
				continue
			}
			ta, ok1 := boolConst(v.Args[2])
			tb, ok2 := boolConst(v.Args[3])
			if !ok1 || !ok2 || ta == tb {
				continue
			}
			fn := ir.TensorFunc(v.Type, "Gram")
			if fn == nil {
				continue
			}
			v.Callee = &ir.Callee{Func: fn}
			v.Args = []*ir.Value{v.Args[0], v.Args[2]}
			fired(env, "syrk", v)
		}
	}
}
