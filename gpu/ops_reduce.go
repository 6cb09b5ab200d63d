package gpu

import (
	"errors"
	"fmt"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/reduce.h.
var (
	rowsParams = []launch.Kind{launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr}
	colsParams = []launch.Kind{launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr}

	// rowsKernels[op][dtIndex]: T → T; rowsToF64[op]: float → double.
	rowsKernels = map[string][2]kernel{
		"Sum": pair("gad_sum_rows", rowsParams...),
		"Max": pair("gad_max_rows", rowsParams...),
	}
	sumRowsF32F64 = kernel{"gad_sum_rows_f32_f64", rowsParams}
	colsKernels   = map[string][2]kernel{
		"Sum": pair("gad_sum_cols", colsParams...),
		"Max": pair("gad_max_cols", colsParams...),
	}
	reduceKernels = []kernel{
		rowsKernels["Sum"][0], rowsKernels["Sum"][1], rowsKernels["Max"][0], rowsKernels["Max"][1], sumRowsF32F64,
		colsKernels["Sum"][0], colsKernels["Sum"][1], colsKernels["Max"][0], colsKernels["Max"][1],
		argmaxBlock[0], argmaxBlock[1], argmaxThread[0], argmaxThread[1],
		// products.h (ops_products.go), listed here to leave declared() as it is.
		dotRows[0], dotRows[1], mirrorUpper[0], mirrorUpper[1],
	}
)

// rowsMin is the shortest row Reduce gives a block of its own.
const rowsMin = 512

// reduceRows launches k: dst[r] = op(src[r·len, min(total, (r+1)·len)))
// for r < rows, one block per row.
func (st *devState) reduceRows(k *kernel, rows, length, total int, src, dst launch.Ptr, keep ...*buffer) error {
	b := st.pow2Block(256)
	grid := launch.Dim3{X: uint32(min(rows, 65535)), Y: 1, Z: 1}
	args := newArgs().I64(rows).I64(length).I64(total).Ptr(src).Ptr(dst)
	return st.launch(k, grid, launch.Dim3{X: uint32(b), Y: 1, Z: 1}, 8*b, args, keep...)
}

func (backend) Reduce(op string, dst, src T.DeviceArray, outer, n, inner int) error {
	rk, ok := rowsKernels[op]
	if !ok {
		return fmt.Errorf("gpu: no reduction %s: %w", op, errors.ErrUnsupported)
	}
	st := buf(dst).st
	i := dtIndex(dst.DType)
	// Long rows: a block per row. Short rows, and columns (inner > 1,
	// where neighbouring threads read neighbouring elements): a thread
	// per output element.
	if inner == 1 && n >= rowsMin {
		return st.reduceRows(&rk[i], outer, n, outer*n, base(src), base(dst), buf(src), buf(dst))
	}
	args := newArgs().I64(outer).I64(n).I64(inner).Ptr(base(src)).Ptr(base(dst))
	grid, block := st.elemConfig(outer * inner)
	ck := colsKernels[op]
	return st.launch(&ck[i], grid, block, 0, args, buf(src), buf(dst))
}

// ReduceAll reduces in two passes: blocks of contiguous parts into
// partials (doubles for a float sum), then the partials in one block.
func (backend) ReduceAll(op string, src T.DeviceArray, n int) (float64, error) {
	rk, ok := rowsKernels[op]
	if !ok {
		return 0, fmt.Errorf("gpu: no reduction %s: %w", op, errors.ErrUnsupported)
	}
	sb := buf(src)
	st := sb.st
	k1, k2 := &rk[dtIndex(src.DType)], &rk[dtIndex(src.DType)]
	pes := sb.esize
	if op == "Sum" {
		// Partial sums in double, whatever the input.
		if src.DType == T.Float32 {
			k1 = &sumRowsF32F64
		}
		k2, pes = &rk[0], 8
	}
	parts := min((n+4095)/4096, 1024)
	length := (n + parts - 1) / parts
	pb, err := newBuffer(st, parts, pes)
	if err != nil {
		return 0, err
	}
	rb, err := newBuffer(st, 1, pes)
	if err != nil {
		return 0, err
	}
	if err := st.reduceRows(k1, parts, length, n, base(src), pb.ptr, sb, pb); err != nil {
		return 0, err
	}
	if err := st.reduceRows(k2, 1, parts, parts, pb.ptr, rb.ptr, pb, rb); err != nil {
		return 0, err
	}
	if pes == 4 {
		var v [1]float32
		err = backend{}.Download(v[:], rb, 0)
		return float64(v[0]), err
	}
	var v [1]float64
	err = backend{}.Download(v[:], rb, 0)
	return v[0], err
}
