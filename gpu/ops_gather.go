package gpu

import (
	"runtime"
	"unsafe"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/gather.h (tensorops' deviceGather).
var (
	gatherKernels     = pair("gad_gather", launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr, launch.KPtr)
	scatterAddKernels = pair("gad_scatter_add", launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr, launch.KPtr, launch.KPtr)

	gatherGroup = []kernel{gatherKernels[0], gatherKernels[1], scatterAddKernels[0], scatterAddKernels[1]}
)

// upload returns a device buffer holding xs as int64s (long long).
func (st *devState) upload(xs []int) (*buffer, error) {
	b, err := newBuffer(st, len(xs), 8)
	if err != nil || len(xs) == 0 {
		return b, err
	}
	host := make([]int64, len(xs))
	for i, x := range xs {
		host[i] = int64(x)
	}
	err = st.l.HtoD(b.ptr, unsafe.Pointer(&host[0]), 8*len(host))
	runtime.KeepAlive(host)
	return b, err
}

// Gather implements tensorops' deviceGather: dst [outer, len(idx),
// inner] is src [outer, n, inner] at idx along the middle axis.
func (backend) Gather(dst, src T.DeviceArray, outer, n, inner int, idx []int) error {
	total := outer * len(idx) * inner
	if total == 0 {
		return nil
	}
	st := buf(dst).st
	ib, err := st.upload(idx)
	if err != nil {
		return err
	}
	grid, block := st.elemConfig(total)
	args := newArgs().I64(outer).I64(n).I64(inner).I64(len(idx)).Ptr(ib.ptr).Ptr(base(src)).Ptr(base(dst))
	return st.launch(&gatherKernels[dtIndex(dst.DType)], grid, block, 0, args, ib, buf(src), buf(dst))
}

// ScatterAdd implements tensorops' deviceGather: dst [outer, n, inner]
// receives the sum of the slices of g [outer, len(idx), inner] at each
// index, added in increasing position. The host sorts the positions by
// index (a counting sort, stable) so that each thread of the kernel
// gathers its element's terms in that order: no atomics, and the CPU's
// numbers.
func (backend) ScatterAdd(dst, g T.DeviceArray, outer, n, inner int, idx []int) error {
	if outer*n*inner == 0 {
		return nil
	}
	// perm (len(idx)) then start (n+1), in one buffer.
	ps := make([]int, len(idx)+n+1)
	perm, start := ps[:len(idx)], ps[len(idx):]
	for _, j := range idx {
		start[j+1]++
	}
	for j := range n {
		start[j+1] += start[j]
	}
	next := append([]int(nil), start[:n]...)
	for k, j := range idx {
		perm[next[j]] = k
		next[j]++
	}
	st := buf(dst).st
	pb, err := st.upload(ps)
	if err != nil {
		return err
	}
	grid, block := st.elemConfig(outer * n * inner)
	var gp launch.Ptr
	keep := []*buffer{pb, buf(dst)}
	if len(idx) > 0 {
		gp = base(g)
		keep = append(keep, buf(g))
	}
	args := newArgs().I64(outer).I64(n).I64(inner).I64(len(idx)).Ptr(pb.ptr).Ptr(pb.at(len(idx))).Ptr(gp).Ptr(base(dst))
	return st.launch(&scatterAddKernels[dtIndex(dst.DType)], grid, block, 0, args, keep...)
}
