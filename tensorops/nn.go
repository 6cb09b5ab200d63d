package tensorops

import (
	"fmt"
	"math"
)

type smKind uint8

const (
	smSoftmax smKind = iota
	smLogSoftmax
	smLogSumExp
)

// softmaxAxis computes, for contiguous src seen as [outer, n, inner], the
// softmax, log-softmax (dst like src) or log-sum-exp (dst [outer, inner])
// along the middle axis, in float64.
func softmaxAxis[T Float](kind smKind, dst, src []T, outer, n, inner int) {
	rows := outer * inner
	if rows == 0 {
		return
	}
	parallelRows(rows, n, grainMath, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			o, i := r/inner, r%inner
			base := o*n*inner + i
			if n == 0 {
				if kind == smLogSumExp {
					dst[r] = T(math.Inf(-1))
				}
				continue
			}
			m := math.Inf(-1)
			for j := 0; j < n; j++ {
				if v := float64(src[base+j*inner]); v > m || v != v {
					m = v
					if v != v {
						break
					}
				}
			}
			if math.IsInf(m, -1) {
				m = 0 // all −Inf: the log-sum-exp is −Inf, not NaN
			}
			s := 0.0
			if kind == smSoftmax {
				// dst holds exp(x−m) until it is scaled (for float32 the
				// rounding to T costs at most one more rounding error).
				for j := 0; j < n; j++ {
					e := math.Exp(float64(src[base+j*inner]) - m)
					s += e
					dst[base+j*inner] = T(e)
				}
			} else {
				for j := 0; j < n; j++ {
					s += math.Exp(float64(src[base+j*inner]) - m)
				}
			}
			switch kind {
			case smSoftmax:
				inv := T(1 / s)
				for j := 0; j < n; j++ {
					dst[base+j*inner] *= inv
				}
			case smLogSoftmax:
				ls := m + math.Log(s)
				for j := 0; j < n; j++ {
					dst[base+j*inner] = T(float64(src[base+j*inner]) - ls)
				}
			case smLogSumExp:
				dst[r] = T(m + math.Log(s))
			}
		}
	})
}

func softmaxOp(name string, kind smKind, a *Tensor, axis int) *Tensor {
	mustNotNil(name, a)
	mustDevice(name, a)
	ax := normAxis(name, a, axis)
	outer, n, inner := splitAxis(a.shape, ax)
	var out *Tensor
	if kind == smLogSumExp {
		out = alloc(a.dtype, without(a.shape, ax))
	} else {
		out = alloc(a.dtype, a.shape)
	}
	ac := a.Contiguous()
	if a.dtype == Float32 {
		softmaxAxis(kind, out.f32, ac.Float32s(), outer, n, inner)
	} else {
		softmaxAxis(kind, out.f64, ac.Float64s(), outer, n, inner)
	}
	return out
}

// Softmax returns exp(a)/Σ_axis exp(a) along axis (negative counts from the
// end), computed stably (the maximum is subtracted first).
// It panics if a is nil or axis is out of range.
func Softmax(a *Tensor, axis int) *Tensor { return softmaxOp("Softmax", smSoftmax, a, axis) }

// LogSoftmax returns a − LogSumExp(a, axis) broadcast along axis.
// It panics if a is nil or axis is out of range.
func LogSoftmax(a *Tensor, axis int) *Tensor {
	return softmaxOp("LogSoftmax", smLogSoftmax, a, axis)
}

// LogSumExp returns log Σ_axis exp(a), computed stably, with axis removed
// (−Inf along an empty axis).
// It panics if a is nil or axis is out of range.
func LogSumExp(a *Tensor, axis int) *Tensor {
	return softmaxOp("LogSumExp", smLogSumExp, a, axis)
}

func checkLogitsLabels(op string, logits, labels *Tensor) {
	mustNotNil(op, logits, labels)
	mustDevice(op, logits, labels)
	mustSameDType(op, logits, labels)
	if len(logits.shape) != 2 || !logits.SameShape(labels) {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: want logits and labels of the same shape [n, c]", op, logits.shape, labels.shape))
	}
}

// SoftmaxCrossEntropy returns the mean over rows i of
// −Σⱼ labels[i,j]·LogSoftmax(logits)[i,j], for logits and labels of shape
// [n, c] (labels are usually one-hot rows or probability rows). It is NaN
// for n = 0.
// It panics if an operand is nil, the shapes differ or are not 2-D, or the
// dtypes differ.
func SoftmaxCrossEntropy(logits, labels *Tensor) float64 {
	checkLogitsLabels("SoftmaxCrossEntropy", logits, labels)
	ls := LogSoftmax(logits, 1)
	return -Dot(ls, labels.Contiguous()) / float64(logits.shape[0])
}
