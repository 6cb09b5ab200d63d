package tensorops

// This file defines the hook through which a device backend (package gpu
// for CUDAKind) computes on tensors whose elements live in its memory:
// the DeviceBackend interface, its registry, device storage in a Tensor,
// Tensor.To, and the dispatch helpers the internal primitives call.
//
// tensorops never imports a backend: the backend imports tensorops and
// registers itself (gpu does it the first time gpu.Device is called).
// Dispatch happens at the primitives every public op funnels through
// (unary and binary op codes, copies and conversions, fills, reductions,
// GEMM), so that a public op built from them reaches the device when its
// operands are there, with the same argument checks and panics as on the
// CPU. An op whose primitive the backend does not implement panics with
// "tensorops: OP: not implemented on cuda:0".

import (
	"errors"
	"fmt"
	"sync"
)

// DeviceBuffer is a device backend's storage for the elements of tensors:
// opaque to tensorops, which only keeps it in the tensors viewing it.
// The backend frees the memory when the buffer becomes unreachable.
type DeviceBuffer interface {
	// Len returns the number of elements the buffer holds.
	Len() int
}

// DeviceArray is what a device backend sees of a tensor: its storage and
// the geometry of the view, with strides and offset in elements. Shape and
// Strides belong to tensorops and must not be modified. An operand passed
// with a destination has the destination's shape: along broadcast
// dimensions its stride is 0.
type DeviceArray struct {
	Buf     DeviceBuffer
	DType   DType
	Shape   []int
	Strides []int
	Offset  int
}

// DeviceBackend computes on the tensors of one DeviceKind. Every method
// reports errors.ErrUnsupported (wrapped) for work it does not implement,
// and then tensorops panics with "tensorops: OP: not implemented on DEV";
// other errors (out of memory, a failed launch) also become panics naming
// the op. The arguments are checked by tensorops: shapes agree, dtypes
// agree unless stated, sizes are non-negative.
//
// Elementwise ops are named by the public op that computes them: the
// unary kernels "Copy", "Neg", "Exp", "Log", "Tanh", "Sigmoid", "ReLU",
// "Sqrt", "Abs", "Square", "Sin", "Cos", "Sign", "Step", "Log1p", "Expm1",
// "GELU", "SiLU", "Softplus", "Erf", and, with parameters p and q,
// "AddScalar" (x+p), "Scale" (x·p), "Affine" (p·x+q), "ScalarDiv" (p/x),
// "PowScalar" (x^p); the binary kernels "Add", "Sub", "Mul", "Div", "Pow",
// "Maximum", "Minimum", "TanhGrad" (b·(1−a²)), "SigmoidGrad" (b·a·(1−a)),
// "ReLUGrad" (b where a > 0), "GELUGrad" (b·(Φ(a) + a·φ(a))), "SiLUGrad"
// (b·σ(a)·(1 + a·(1−σ(a)))). Their element formulas are those of the CPU
// kernels (kernels.go, activation.go). Reductions are "Sum"
// and "Max".
type DeviceBackend interface {
	// Alloc returns storage for n elements of dt on dev; the elements
	// are not initialized.
	Alloc(dev Device, dt DType, n int) (DeviceBuffer, error)

	// Upload copies src, a []float64 or []float32 of the buffer's dtype,
	// into dst's elements [off, off+len(src)).
	Upload(dst DeviceBuffer, off int, src any) error

	// Download copies src's elements [off, off+len(dst)) into dst, a
	// []float64 or []float32 of the buffer's dtype.
	Download(dst any, src DeviceBuffer, off int) error

	// Fill sets every element of dst's view to v.
	Fill(dst DeviceArray, v float64) error

	// Unary sets dst = op(a) elementwise; a has dst's shape and dtype.
	Unary(op string, dst, a DeviceArray, p, q float64) error

	// Binary sets dst = a op b elementwise; a and b have dst's shape and
	// dtype. dst may be a or b (the same view), never a partial overlap.
	Binary(op string, dst, a, b DeviceArray) error

	// Convert copies src into dst converting the elements from src's
	// dtype to dst's (which differ); src has dst's shape.
	Convert(dst, src DeviceArray) error

	// Reduce reduces src, contiguous and seen as [outer, n, inner], along
	// its middle axis into contiguous dst [outer, inner], accumulating in
	// float64. op is "Sum" or "Max" (the maximum: NaN if one is NaN); n
	// is positive for "Max".
	Reduce(op string, dst, src DeviceArray, outer, n, inner int) error

	// ReduceAll reduces the n elements of contiguous src to one float64:
	// op is "Sum" (accumulated in float64) or "Max" (n > 0).
	ReduceAll(op string, src DeviceArray, n int) (float64, error)

	// Gemm sets C = alpha·op(A)·op(B) + beta·C as BLAS's row-major GEMM
	// does: C is m×n with leading dimension ldc starting at element oc
	// of c, op(A) m×k, op(B) k×n; with beta = 0, C is not read. m, n and
	// k are positive; c does not overlap a or b.
	Gemm(dt DType, transA, transB bool, m, n, k int, alpha float64,
		a DeviceBuffer, oa, lda int, b DeviceBuffer, ob, ldb int,
		beta float64, c DeviceBuffer, oc, ldc int) error

	// Sync waits until the work queued on dev is done and reports its
	// first error.
	Sync(dev Device) error
}

var (
	devMu       sync.RWMutex
	devBackends = map[DeviceKind]DeviceBackend{}
)

// RegisterDevice makes b the backend of the tensors on devices of kind
// k. Package gpu calls it for CUDAKind; a later call replaces the
// backend (for tests).
// It panics if k is CPUKind or b is nil.
func RegisterDevice(k DeviceKind, b DeviceBackend) {
	if k == CPUKind || b == nil {
		panic(fmt.Sprintf("tensorops: RegisterDevice: cannot register %v for %v", b, k))
	}
	devMu.Lock()
	devBackends[k] = b
	devMu.Unlock()
}

// deviceBackend returns the backend of dev, panicking for op when none
// is registered.
func deviceBackend(op string, dev Device) DeviceBackend {
	devMu.RLock()
	b := devBackends[dev.Kind]
	devMu.RUnlock()
	if b == nil {
		panic(fmt.Sprintf("tensorops: %s: no backend for device %v (the CUDA backend registers itself when package gpu's Device is called)", op, dev))
	}
	return b
}

// devFail panics for op on dev with err, unless err is nil.
func devFail(op string, dev Device, err error) {
	if err == nil {
		return
	}
	if errors.Is(err, errors.ErrUnsupported) {
		panic(fmt.Sprintf("tensorops: %s: not implemented on %v: %v", op, dev, err))
	}
	panic(fmt.Sprintf("tensorops: %s: %v: %v", op, dev, err))
}

// onDevice reports whether any of ts (nil ones ignored) lives on a device,
// after checking that they all live on the same one.
func onDevice(op string, ts ...*Tensor) bool {
	var first *Tensor
	for _, t := range ts {
		if t == nil {
			continue
		}
		if first == nil {
			first = t
			continue
		}
		if t.dev != first.dev {
			panic(fmt.Sprintf("tensorops: %s: shapes %v and %v are on devices %v and %v", op, first.shape, t.shape, first.dev, t.dev))
		}
	}
	return first != nil && first.dev != CPU
}

// hostOnly panics unless t is on the CPU: op reads or writes its elements
// from Go.
func hostOnly(op string, t *Tensor) {
	if t.dev != CPU {
		panic(fmt.Sprintf("tensorops: %s: shape %v is on %v: copy it to the host with To(tensorops.CPU)", op, t.shape, t.dev))
	}
}

// allocOn returns a fresh contiguous tensor on dev; its elements are zero
// on the CPU and not initialized on a device.
func allocOn(op string, dev Device, dt DType, shape []int) *Tensor {
	if dev == CPU {
		return alloc(dt, shape)
	}
	buf, err := deviceBackend(op, dev).Alloc(dev, dt, prod(shape))
	devFail(op, dev, err)
	sh := append([]int(nil), shape...)
	return &Tensor{dtype: dt, shape: sh, strides: rowMajor(sh), buf: buf, dev: dev}
}

// allocOutOn is allocOn for the result of a product with β = 0 (gemmBatched
// writes every element and reads none): on the CPU, a reused buffer is
// not zeroed.
func allocOutOn(op string, dev Device, dt DType, shape []int) *Tensor {
	if dev == CPU {
		return allocRaw(dt, shape)
	}
	return allocOn(op, dev, dt, shape)
}

// zerosOn returns a fresh contiguous zero tensor on dev.
func zerosOn(op string, dev Device, dt DType, shape []int) *Tensor {
	t := allocOn(op, dev, dt, shape)
	if dev != CPU {
		devFill(op, t, 0)
	}
	return t
}

// arr returns t's view for a backend.
func (t *Tensor) arr() DeviceArray {
	return DeviceArray{Buf: t.buf, DType: t.dtype, Shape: t.shape, Strides: t.strides, Offset: t.offset}
}

// arrAs returns t's view broadcast to shape (zero strides along the
// broadcast dimensions) for a backend.
func (t *Tensor) arrAs(shape []int) DeviceArray {
	if sameShape(t.shape, shape) {
		return t.arr()
	}
	return DeviceArray{Buf: t.buf, DType: t.dtype, Shape: shape, Strides: bstrides(t, shape), Offset: t.offset}
}

// span returns the range [lo, hi) of storage elements t's view reaches
// (strides are non-negative); empty for an empty tensor.
func (t *Tensor) span() (lo, hi int) {
	if prod(t.shape) == 0 {
		return t.offset, t.offset
	}
	hi = t.offset + 1
	for i, d := range t.shape {
		hi += (d - 1) * t.strides[i]
	}
	return t.offset, hi
}

// To returns t on device dev: t itself when it is already there, else a
// copy. The copy has t's shape and strides: it holds the part of t's
// storage that t's view reaches, from its first element to its last.
// It panics if t is nil or no backend is registered for dev.
func (t *Tensor) To(dev Device) *Tensor {
	mustNotNil("To", t)
	if t.dev == dev {
		return t
	}
	lo, hi := t.span()
	out := &Tensor{dtype: t.dtype, shape: append([]int(nil), t.shape...), strides: append([]int(nil), t.strides...), dev: dev}
	var host *Tensor // t's elements [lo, hi) on the CPU
	if t.dev == CPU {
		host = t
	} else {
		// Device to host (and device to device through the host).
		host = &Tensor{dtype: t.dtype}
		be := deviceBackend("To", t.dev)
		var err error
		if t.dtype == Float32 {
			host.f32 = make([]float32, hi-lo)
			err = be.Download(host.f32, t.buf, lo)
		} else {
			host.f64 = make([]float64, hi-lo)
			err = be.Download(host.f64, t.buf, lo)
		}
		devFail("To", t.dev, err)
		if dev == CPU {
			out.f32, out.f64 = host.f32, host.f64
			return out
		}
		lo, hi = 0, hi-lo
	}
	be := deviceBackend("To", dev)
	buf, err := be.Alloc(dev, t.dtype, hi-lo)
	devFail("To", dev, err)
	if hi > lo {
		if t.dtype == Float32 {
			err = be.Upload(buf, 0, host.f32[lo:hi])
		} else {
			err = be.Upload(buf, 0, host.f64[lo:hi])
		}
		devFail("To", dev, err)
	}
	out.buf = buf
	return out
}

// Sync waits until the work queued on dev is done; a no-op for the CPU.
// It panics with the first error of that work.
func Sync(dev Device) {
	if dev == CPU {
		return
	}
	devFail("Sync", dev, deviceBackend("Sync", dev).Sync(dev))
}

// devUnary is unary on a device: dst = op(a), dst allocated when nil.
func devUnary(name string, op unOp, dst, a *Tensor, p, q float64) *Tensor {
	if dst == nil {
		dst = allocOn(name, a.dev, a.dtype, a.shape)
	}
	if dst.Size() > 0 {
		devFail(name, a.dev, deviceBackend(name, a.dev).Unary(unOpNames[op], dst.arr(), a.arrAs(dst.shape), p, q))
	}
	return dst
}

// devBinary is binary on a device: dst = a op b, shapes checked.
func devBinary(name string, op binOp, dst, a, b *Tensor) *Tensor {
	if dst.Size() > 0 {
		devFail(name, a.dev, deviceBackend(name, a.dev).Binary(binOpNames[op], dst.arr(), a.arrAs(dst.shape), b.arrAs(dst.shape)))
	}
	return dst
}

// devCopy is copyInto on a device: src broadcast to dst, converted.
func devCopy(name string, dst, src *Tensor) {
	if dst.Size() == 0 {
		return
	}
	be := deviceBackend(name, dst.dev)
	if dst.dtype == src.dtype {
		devFail(name, dst.dev, be.Unary("Copy", dst.arr(), src.arrAs(dst.shape), 0, 0))
		return
	}
	devFail(name, dst.dev, be.Convert(dst.arr(), src.arrAs(dst.shape)))
}

// devFill is Fill on a device.
func devFill(name string, t *Tensor, v float64) {
	if t.Size() > 0 {
		devFail(name, t.dev, deviceBackend(name, t.dev).Fill(t.arr(), v))
	}
}

// devReduce is reduce on a device: a contiguous, out fresh.
func devReduce(name string, op redOp, out, a *Tensor, outer, n, inner int) {
	if outer*inner == 0 {
		return
	}
	devFail(name, a.dev, deviceBackend(name, a.dev).Reduce(redOpNames[op], out.arr(), a.arr(), outer, n, inner))
}

// devReduceAll is SumAll or MaxAll on a device (a contiguous).
func devReduceAll(name string, op redOp, a *Tensor) float64 {
	n := a.Size()
	if n == 0 {
		return 0
	}
	v, err := deviceBackend(name, a.dev).ReduceAll(redOpNames[op], a.arr(), n)
	devFail(name, a.dev, err)
	return v
}

// devGemm is gemmCall on a device.
func devGemm(c *Tensor, dt DType, ta, tb bool, m, n, k int, alpha float64, a *Tensor, oa, lda int, b *Tensor, ob, ldb int, beta float64, oc, ldc int) {
	devFail("MatMul", c.dev, deviceBackend("MatMul", c.dev).Gemm(dt, ta, tb, m, n, k, alpha, a.buf, oa, lda, b.buf, ob, ldb, beta, c.buf, oc, ldc))
}

// unOpNames, binOpNames and redOpNames are the names of the op codes in
// the DeviceBackend interface.
var (
	unOpNames = [...]string{
		uCopy: "Copy", uNeg: "Neg", uExp: "Exp", uLog: "Log", uTanh: "Tanh",
		uSigmoid: "Sigmoid", uReLU: "ReLU", uSqrt: "Sqrt", uAbs: "Abs",
		uSquare: "Square", uSin: "Sin", uCos: "Cos", uSign: "Sign",
		uStep: "Step", uLog1p: "Log1p", uExpm1: "Expm1", uAddS: "AddScalar",
		uMulS: "Scale", uAffine: "Affine", uRDivS: "ScalarDiv", uPowS: "PowScalar",
		uGELU: "GELU", uSiLU: "SiLU", uSoftplus: "Softplus", uErf: "Erf",
	}
	binOpNames = [...]string{
		bAdd: "Add", bSub: "Sub", bMul: "Mul", bDiv: "Div", bPow: "Pow",
		bMax: "Maximum", bMin: "Minimum", bTanhGrad: "TanhGrad",
		bSigmoidGrad: "SigmoidGrad", bReLUGrad: "ReLUGrad", bGELUGrad: "GELUGrad",
		bSiLUGrad: "SiLUGrad",
	}
	redOpNames = [...]string{rSum: "Sum", rMax: "Max"}
)
