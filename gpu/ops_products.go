package gpu

import (
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/products.h (listed in reduceKernels).
var (
	dotRows     = pair("gad_dot_rows", launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr, launch.KPtr)
	mirrorUpper = pair("gad_mirror_upper", launch.KI64, launch.KPtr)
)

// Dot implements tensorops' deviceDot: Σ a[i]·b[i] over the n elements of
// contiguous a and b, in float64, in two passes as ReduceAll's sum: the
// products of contiguous parts summed by blocks into partials, then the
// partials in one block.
func (backend) Dot(a, b T.DeviceArray, n int) (float64, error) {
	if n == 0 {
		return 0, nil
	}
	st := buf(a).st
	parts := min((n+4095)/4096, 1024)
	length := (n + parts - 1) / parts
	pb, err := newBuffer(st, parts, 8)
	if err != nil {
		return 0, err
	}
	rb, err := newBuffer(st, 1, 8)
	if err != nil {
		return 0, err
	}
	bs := st.pow2Block(256)
	grid := launch.Dim3{X: uint32(min(parts, 65535)), Y: 1, Z: 1}
	args := newArgs().I64(parts).I64(length).I64(n).Ptr(base(a)).Ptr(base(b)).Ptr(pb.ptr)
	if err := st.launch(&dotRows[dtIndex(a.DType)], grid, launch.Dim3{X: uint32(bs), Y: 1, Z: 1}, 8*bs, args, buf(a), buf(b), pb); err != nil {
		return 0, err
	}
	sum := rowsKernels["Sum"]
	if err := st.reduceRows(&sum[0], 1, parts, parts, pb.ptr, rb.ptr, pb, rb); err != nil {
		return 0, err
	}
	var v [1]float64
	err = backend{}.Download(v[:], rb, 0)
	return v[0], err
}

// MirrorUpper implements tensorops' deviceMirror: the lower triangle of
// the contiguous n×n matrix c set from its upper triangle.
func (backend) MirrorUpper(c T.DeviceArray, n int) error {
	if n < 2 {
		return nil
	}
	st := buf(c).st
	grid, block := st.elemConfig(n * n)
	args := newArgs().I64(n).Ptr(base(c))
	return st.launch(&mirrorUpper[dtIndex(c.DType)], grid, block, 0, args, buf(c))
}
