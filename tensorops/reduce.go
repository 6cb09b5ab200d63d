package tensorops

import "fmt"

// splitAxis returns the sizes of a's dimensions before, at and after axis.
func splitAxis(shape []int, ax int) (outer, n, inner int) {
	return prod(shape[:ax]), shape[ax], prod(shape[ax+1:])
}

// without returns shape with dimension ax removed.
func without(shape []int, ax int) []int {
	s := make([]int, 0, len(shape)-1)
	s = append(s, shape[:ax]...)
	return append(s, shape[ax+1:]...)
}

type redOp uint8

const (
	rSum redOp = iota
	rMax
)

// reduceAxis reduces contiguous src, seen as [outer, n, inner], along the
// middle axis into contiguous dst [outer, inner]. rMax keeps the first
// maximum (NaNs propagate).
func reduceAxis[T Float](op redOp, dst, src []T, outer, n, inner int) {
	if outer*inner == 0 {
		return
	}
	if inner == 1 {
		parallelRows(outer, n, grainReduce, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				row := src[o*n : o*n+n]
				if op == rSum {
					dst[o] = T(sumF64(row))
				} else {
					dst[o] = maxOf(row)
				}
			}
		})
		return
	}
	// Work items are (o, column range) pieces of the output.
	parallel(outer*inner, max(grainReduce/max(n, 1), 16), func(lo, hi int) {
		for idx := lo; idx < hi; {
			o, i0 := idx/inner, idx%inner
			i1 := min(inner, i0+(hi-idx))
			d := dst[o*inner+i0 : o*inner+i1]
			base := o * n * inner
			copy(d, src[base+i0:base+i1])
			for j := 1; j < n; j++ {
				s := src[base+j*inner+i0 : base+j*inner+i1]
				s = s[:len(d)]
				if op == rSum {
					for i := range d {
						d[i] += s[i]
					}
				} else {
					for i := range d {
						if s[i] > d[i] || (s[i] != s[i] && d[i] == d[i]) {
							d[i] = s[i]
						}
					}
				}
			}
			idx += i1 - i0
		}
	})
}

// sumF64 sums x with a float64 accumulator (four of them, for speed).
func sumF64[T Float](x []T) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i])
		s1 += float64(x[i+1])
		s2 += float64(x[i+2])
		s3 += float64(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// maxOf returns the first maximum of a non-empty x (NaN if x has one).
func maxOf[T Float](x []T) T {
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		} else if v != v {
			return v
		}
	}
	return m
}

// argMaxOf returns the index of the first maximum of x (of the first NaN).
func argMaxOf[T Float](x []T, stride, n int) int {
	best := 0
	m := x[0]
	if m != m {
		return 0
	}
	for j := 1; j < n; j++ {
		v := x[j*stride]
		if v > m {
			m, best = v, j
		} else if v != v {
			return j
		}
	}
	return best
}

func reduce(name string, op redOp, a *Tensor, axis int) *Tensor {
	mustNotNil(name, a)
	ax := normAxis(name, a, axis)
	outer, n, inner := splitAxis(a.shape, ax)
	if op == rMax && n == 0 {
		panic(fmt.Sprintf("tensorops: %s: axis %d of shape %v is empty", name, axis, a.shape))
	}
	out := allocOn(name, a.dev, a.dtype, without(a.shape, ax))
	ac := a.Contiguous()
	if a.dev != CPU {
		devReduce(name, op, out, ac, outer, n, inner)
		return out
	}
	if a.dtype == Float32 {
		reduceAxis(op, out.f32, ac.Float32s(), outer, n, inner)
	} else {
		reduceAxis(op, out.f64, ac.Float64s(), outer, n, inner)
	}
	return out
}

// Sum returns the sum of a along axis (negative counts from the end), with
// that axis removed.
// It panics if a is nil or axis is out of range.
func Sum(a *Tensor, axis int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	if a.lanes {
		return laneSum(a, axis)
	}
	return reduce("Sum", rSum, a, axis)
}

// Mean returns the mean of a along axis, with that axis removed (NaN along
// an empty axis).
// It panics if a is nil or axis is out of range.
func Mean(a *Tensor, axis int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	if a.lanes {
		return laneMean(a, axis)
	}
	s := reduce("Mean", rSum, a, axis)
	n := a.shape[normAxis("Mean", a, axis)]
	return ScaleTo(s, s, 1/float64(n))
}

// Max returns the maximum of a along axis, with that axis removed. A NaN
// gives NaN. At ties the derivative goes to the first maximum (MaxGrad,
// MaxJVP).
// It panics if a is nil, axis is out of range or the axis is empty.
func Max(a *Tensor, axis int) *Tensor { return reduce("Max", rMax, a, axis) }

// sumBlock is the block size of SumAll's partial sums: they are added in
// order, so the result does not depend on the number of threads.
const sumBlock = 1 << 13

// SumAll returns the sum of all elements of a (accumulated in float64).
// The result does not depend on the number of threads.
// It panics if a is nil.
func SumAll(a *Tensor) float64 {
	if a == nil {
		return 0 // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("SumAll", a)
	ac := a.Contiguous()
	if a.dev != CPU {
		return devReduceAll("SumAll", rSum, ac)
	}
	if a.dtype == Float32 {
		return sumAll(ac.Float32s())
	}
	return sumAll(ac.Float64s())
}

func sumAll[T Float](x []T) float64 {
	nb := (len(x) + sumBlock - 1) / sumBlock
	if nb <= 1 {
		return sumF64(x)
	}
	part := make([]float64, nb)
	parallelRows(nb, sumBlock, grainReduce, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			part[b] = sumF64(x[b*sumBlock : min((b+1)*sumBlock, len(x))])
		}
	})
	s := 0.0
	for _, p := range part {
		s += p
	}
	return s
}

// MeanAll returns the mean of all elements of a (NaN when a is empty).
// It panics if a is nil.
func MeanAll(a *Tensor) float64 {
	if a == nil {
		return 0 // a zero operand of a linear map (the package doc: nil)
	}
	return SumAll(a) / float64(Size(a))
}

// MaxAll returns the largest element of a (NaN if a has one); the
// derivative goes to the first maximum in row-major order (MaxAllGrad).
// It panics if a is nil or empty.
func MaxAll(a *Tensor) float64 {
	mustNotNil("MaxAll", a)
	if a.Size() == 0 {
		panic(fmt.Sprintf("tensorops: MaxAll: shape %v is empty", a.shape))
	}
	ac := a.Contiguous()
	if a.dev != CPU {
		return devReduceAll("MaxAll", rMax, ac)
	}
	if a.dtype == Float32 {
		return float64(maxAll(ac.Float32s()))
	}
	return maxAll(ac.Float64s())
}

func maxAll[T Float](x []T) T {
	nb := (len(x) + sumBlock - 1) / sumBlock
	if nb <= 1 {
		return maxOf(x)
	}
	part := make([]T, nb)
	parallelRows(nb, sumBlock, grainReduce, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			part[b] = maxOf(x[b*sumBlock : min((b+1)*sumBlock, len(x))])
		}
	})
	return maxOf(part)
}

// deviceArgMax is implemented by device backends that find the first
// maximum along an axis on the device (ArgMax, and the derivatives of Max
// and MaxAll). Each takes contiguous operands, a seen as [outer, n,
// inner] with n > 0, and finds in each row (o, i) the index k of the
// first maximum along the middle axis (of the first NaN), as argMaxOf.
type deviceArgMax interface {
	// ArgMax sets idx[o·inner+i] = k.
	ArgMax(idx []int, a DeviceArray, outer, n, inner int) error
	// MaxGrad sets dst (a's shape) to zeros with g[o, i] (g [outer,
	// inner]) at (o, k, i).
	MaxGrad(dst, a, g DeviceArray, outer, n, inner int) error
	// MaxJVP sets dst[o, i] (dst [outer, inner]) to da at (o, k, i) (da of
	// a's shape).
	MaxJVP(dst, a, da DeviceArray, outer, n, inner int) error
}

// argMaxFlat returns the row-major index of the first maximum of a.
func argMaxFlat(a *Tensor) int {
	ac := a.Contiguous()
	if a.dtype == Float32 {
		x := ac.Float32s()
		return argMaxOf(x, 1, len(x))
	}
	x := ac.Float64s()
	return argMaxOf(x, 1, len(x))
}

// ArgMax returns, for each position of a with axis removed (in row-major
// order), the index along axis of the first maximum (of the first NaN).
// It panics if a is nil, axis is out of range or the axis is empty.
func ArgMax(a *Tensor, axis int) []int {
	mustNotNil("ArgMax", a)
	ax := normAxis("ArgMax", a, axis)
	outer, n, inner := splitAxis(a.shape, ax)
	if n == 0 {
		panic(fmt.Sprintf("tensorops: ArgMax: axis %d of shape %v is empty", axis, a.shape))
	}
	ac := a.Contiguous()
	idx := make([]int, outer*inner)
	if a.dev != CPU {
		devFail("ArgMax", a.dev, devExt[deviceArgMax]("ArgMax", a.dev).ArgMax(idx, ac.arr(), outer, n, inner))
		return idx
	}
	if a.dtype == Float32 {
		argMaxAxis(idx, ac.Float32s(), outer, n, inner)
	} else {
		argMaxAxis(idx, ac.Float64s(), outer, n, inner)
	}
	return idx
}

func argMaxAxis[T Float](idx []int, x []T, outer, n, inner int) {
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			idx[o*inner+i] = argMaxOf(x[o*n*inner+i:], inner, n)
		}
	}
}

// SumLike returns g summed over the dimensions that broadcasting added or
// expanded so that the result has like's shape: the adjoint of broadcasting
// like's shape to g's. It returns g itself when the shapes are equal, and
// nil when g is nil (zero) or like is nil: the adjoint of a nil operand
// (Add(nil, x), a sum started from nil) goes nowhere, as nil is a constant.
// It panics if like's shape does not broadcast to g's.
func SumLike(g, like *Tensor) *Tensor {
	if g == nil || like == nil {
		return nil // a zero adjoint, or the adjoint of a nil operand (the package doc: nil)
	}
	if g.lanes || like.lanes {
		return laneSumLike(g, like)
	}
	if sameShape(g.shape, like.shape) {
		return g
	}
	if !broadcastsTo(like.shape, g.shape) {
		panic(fmt.Sprintf("tensorops: SumLike: shapes %v and %v: like does not broadcast to g", g.shape, like.shape))
	}
	return sumToShape(g, like.shape)
}

// sumToShape sums g to shape, which broadcasts to g's shape.
func sumToShape(g *Tensor, shape []int) *Tensor {
	r := g
	if extra := len(g.shape) - len(shape); extra > 0 {
		r = Reshape(r, append([]int{prod(g.shape[:extra])}, g.shape[extra:]...)...)
		r = Sum(r, 0)
	}
	for i, d := range shape {
		if d == 1 && r.shape[i] != 1 {
			r = Unsqueeze(Sum(r, i), i)
		}
	}
	if r == g {
		r = g.Clone()
	}
	return r
}
