// Package tensorrw benchmarks the tensor rewrites on the programs of
// issue 12's table beyond the Laplacian: Enzyme-JaX's slice example,
// c = (x·y)⊙z + 4 of which 10 elements are used, and a product by a
// diagonal matrix. Each derivative is generated optimized and with opt=0
// (names ending in O0).
package tensorrw

//go:generate gadgen

import (
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// SliceProgram computes c = (x·y)⊙z + 4 for x [n, k], y [k] and z [n], and
// uses its first 10 elements: with the rewrites, the slice is pushed
// through the addition and the product by z into the matrix product, so
// the derivative computes 10 elements of each, not n.
//
//gad:jvp
func SliceProgram(x, y, z *tensorops.Tensor) float64 {
	c := tensorops.AddScalar(tensorops.Mul(tensorops.MatMul(x, y), z), 4)
	return tensorops.SumAll(tensorops.Tanh(tensorops.Slice(c, 0, 0, 10)))
}

//gad:jvp SliceProgramJVPO0 github.com/gadgen/gadgen/bench/tensorrw.SliceProgram opt=0

// SliceInputs returns x [n, k], y [k], z [n] and tangents of each.
func SliceInputs(n, k int, seed uint64) (x, y, z, dx, dy, dz *tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 3))
	r := func(shape ...int) *tensorops.Tensor { return tensorops.RandN(rng, tensorops.Float64, shape...) }
	return r(n, k), r(k), r(n), r(n, k), r(k), r(n)
}

// DiagProgram scales the rows of a [n, m] by v [n] as a product by a
// diagonal matrix, diag(v)·a, then multiplies by b [m, m]: with the
// rewrites, diag(v)·a is a row scaling (n·m products instead of an n×n
// matrix and n²·m), in the value and in the gradient.
//
//gad:grad
func DiagProgram(v, a, b *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.MatMul(tensorops.MatMul(tensorops.Diag(v), a), b)))
}

//gad:grad DiagProgramGradO0 github.com/gadgen/gadgen/bench/tensorrw.DiagProgram opt=0

// DiagInputs returns v [n], a [n, m] and b [m, m].
func DiagInputs(n, m int, seed uint64) (v, a, b *tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 4))
	r := func(shape ...int) *tensorops.Tensor { return tensorops.RandN(rng, tensorops.Float64, shape...) }
	return r(n), r(n, m), tensorops.Scale(r(m, m), 0.1)
}
