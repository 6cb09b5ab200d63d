package gpu

import (
	"fmt"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/nn.h: softmax, log-softmax and log-sum-exp
// (tensorops' deviceSoftmax), cross-entropy (deviceCrossEntropy), each as
// a block per row (_block) and a thread per row (_thread); nnKernels also
// lists those of conv.h (ops_nn_conv.go).
var (
	softmaxParams = []launch.Kind{launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr}
	xentParams    = []launch.Kind{launch.KI64, launch.KI64, launch.KPtr, launch.KPtr, launch.KPtr}

	softmaxBlock  = pair("gad_softmax_block", softmaxParams...)
	softmaxThread = pair("gad_softmax_thread", softmaxParams...)
	xentBlock     = pair("gad_xent_block", xentParams...)
	xentThread    = pair("gad_xent_thread", xentParams...)

	nnKernels = []kernel{
		softmaxBlock[0], softmaxBlock[1], softmaxThread[0], softmaxThread[1],
		xentBlock[0], xentBlock[1], xentThread[0], xentThread[1],
		im2colKernels[0], im2colKernels[1], col2imKernels[0], col2imKernels[1], // conv.h
	}
)

// softmaxKinds are the kind parameters of gad_softmax (GAD_SM_* in nn.h).
var softmaxKinds = map[string]int{"Softmax": 0, "LogSoftmax": 1, "LogSumExp": 2}

// rowBlockMin is the shortest row given a block of its own by the
// row-wise kernels of nn.h (shorter rows get a thread each).
const rowBlockMin = 64

// rowConfig returns the launch of rows rows of n elements with stride
// inner for a kernel pair with a _block and a _thread form: a block of up
// to 256 threads (a power of two, about n) per row for long contiguous
// rows, or for long strided rows when there are few of them; else a
// thread per row. It returns the shared memory bytes of the block form.
func (st *devState) rowConfig(rows, n, inner int) (byBlock bool, grid, block launch.Dim3, shared int) {
	if n >= rowBlockMin && (inner == 1 || rows < 32*st.props.MultiProcessors) {
		b := st.pow2Block(min(256, n))
		if b < n && b*2 <= min(256, st.props.MaxThreadsPerBlock) {
			b *= 2 // round n up, not down, to a power of two
		}
		return true, launch.Dim3{X: uint32(min(rows, 65535)), Y: 1, Z: 1}, launch.Dim3{X: uint32(b), Y: 1, Z: 1}, 8 * b
	}
	grid, block = st.elemConfig(rows)
	return false, grid, block, 0
}

// Softmax implements tensorops' deviceSoftmax: op "Softmax",
// "LogSoftmax" (dst like src) or "LogSumExp" (dst [outer, inner]) along
// the middle axis of contiguous src [outer, n, inner].
func (backend) Softmax(op string, dst, src T.DeviceArray, outer, n, inner int) error {
	kind, ok := softmaxKinds[op]
	if !ok {
		return fmt.Errorf("gpu: internal error: softmax kind %q", op)
	}
	rows := outer * inner
	if rows == 0 || (n == 0 && op != "LogSumExp") {
		return nil
	}
	st := buf(dst).st
	byBlock, grid, block, shared := st.rowConfig(rows, n, inner)
	ks := &softmaxThread
	if byBlock {
		ks = &softmaxBlock
	}
	args := newArgs().I64(kind).I64(outer).I64(n).I64(inner).Ptr(base(src)).Ptr(base(dst))
	return st.launch(&ks[dtIndex(dst.DType)], grid, block, shared, args, buf(src), buf(dst))
}

// SoftmaxCrossEntropy implements tensorops' deviceCrossEntropy: Σ over
// the rows of contiguous logits and labels [rows, c] of
// Σ_j labels[r,j]·LogSoftmax(logits)[r,j], accumulated in float64 (a
// partial per row, then their sum).
func (be backend) SoftmaxCrossEntropy(logits, labels T.DeviceArray, rows, c int) (float64, error) {
	if rows == 0 || c == 0 {
		return 0, nil
	}
	st := buf(logits).st
	part, err := newBuffer(st, rows, 8)
	if err != nil {
		return 0, err
	}
	byBlock, grid, block, shared := st.rowConfig(rows, c, 1)
	ks := &xentThread
	if byBlock {
		ks = &xentBlock
	}
	args := newArgs().I64(rows).I64(c).Ptr(base(logits)).Ptr(base(labels)).Ptr(part.ptr)
	if err := st.launch(&ks[dtIndex(logits.DType)], grid, block, shared, args, buf(logits), buf(labels), part); err != nil {
		return 0, err
	}
	return be.ReduceAll("Sum", T.DeviceArray{Buf: part, DType: T.Float64, Shape: []int{rows}, Strides: []int{1}}, rows)
}
