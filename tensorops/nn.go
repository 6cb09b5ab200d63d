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

// devExt returns the backend of dev as I, an optional interface of
// backends for an op with a device path of its own (deviceSoftmax, ...),
// panicking "not implemented" for op when the backend lacks it.
func devExt[I any](op string, dev Device) I {
	b, ok := deviceBackend(op, dev).(I)
	if !ok {
		panic(fmt.Sprintf("tensorops: %s: not implemented on %v", op, dev))
	}
	return b
}

// deviceSoftmax is implemented by device backends that compute the
// softmax family on the device.
type deviceSoftmax interface {
	// Softmax sets dst to op ("Softmax", "LogSoftmax" or "LogSumExp") of
	// contiguous src, seen as [outer, n, inner], along its middle axis,
	// with softmaxAxis's arithmetic; dst is contiguous, of src's shape or
	// (LogSumExp) [outer, inner].
	Softmax(op string, dst, src DeviceArray, outer, n, inner int) error
}

// deviceCrossEntropy is implemented by device backends that compute
// SoftmaxCrossEntropy on the device.
type deviceCrossEntropy interface {
	// SoftmaxCrossEntropy returns Σ over rows i and columns j of
	// labels[i,j]·LogSoftmax(logits, 1)[i,j] (the log-softmax rounded to
	// the dtype, the sum accumulated in float64), for contiguous logits
	// and labels [rows, c] of one dtype.
	SoftmaxCrossEntropy(logits, labels DeviceArray, rows, c int) (float64, error)
}

var smNames = [...]string{smSoftmax: "Softmax", smLogSoftmax: "LogSoftmax", smLogSumExp: "LogSumExp"}

func softmaxOp(name string, kind smKind, a *Tensor, axis int) *Tensor {
	mustNotNil(name, a)
	ax := normAxis(name, a, axis)
	outer, n, inner := splitAxis(a.shape, ax)
	var out *Tensor
	if kind == smLogSumExp {
		out = allocOn(name, a.dev, a.dtype, without(a.shape, ax))
	} else {
		out = allocOn(name, a.dev, a.dtype, a.shape)
	}
	ac := a.Contiguous()
	if a.dev != CPU {
		devFail(name, a.dev, devExt[deviceSoftmax](name, a.dev).Softmax(smNames[kind], out.arr(), ac.arr(), outer, n, inner))
		return out
	}
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
	onDevice(op, logits, labels)
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
	if logits.dev != CPU {
		const op = "SoftmaxCrossEntropy"
		s, err := devExt[deviceCrossEntropy](op, logits.dev).SoftmaxCrossEntropy(logits.Contiguous().arr(), labels.Contiguous().arr(), logits.shape[0], logits.shape[1])
		devFail(op, logits.dev, err)
		return -s / float64(logits.shape[0])
	}
	ls := LogSoftmax(logits, 1)
	return -Dot(ls, labels.Contiguous()) / float64(logits.shape[0])
}
