package gpu

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The argmax kernels of kern/reduce.h (tensorops' deviceArgMax): a block
// or a thread per row, in three modes (GAD_ARGMAX_* in reduce.h).
var (
	argmaxParams = []launch.Kind{launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr, launch.KPtr, launch.KPtr}
	argmaxBlock  = pair("gad_argmax_block", argmaxParams...)
	argmaxThread = pair("gad_argmax_thread", argmaxParams...)
)

const (
	argmaxIndex = iota
	argmaxMaxGrad
	argmaxMaxJVP
)

// argmax launches the argmax kernel of a (contiguous [outer, n, inner],
// n > 0, outer·inner > 0) in mode, with the operands the mode uses (the
// others nil).
func (st *devState) argmax(mode int, a, g, d *T.DeviceArray, idx *buffer, outer, n, inner int) error {
	rows := outer * inner
	byBlock, grid, block, shared := st.rowConfig(rows, n, inner)
	ks := &argmaxThread
	if byBlock {
		ks = &argmaxBlock
		shared *= 2 // values and indices
	}
	keep := []*buffer{buf(*a)}
	ptr := func(x *T.DeviceArray) launch.Ptr {
		if x == nil {
			return 0
		}
		keep = append(keep, buf(*x))
		return base(*x)
	}
	args := newArgs().I64(mode).I64(outer).I64(n).I64(inner).Ptr(base(*a)).Ptr(ptr(g)).Ptr(ptr(d))
	if idx != nil {
		args.Ptr(idx.ptr)
		keep = append(keep, idx)
	} else {
		args.Ptr(0)
	}
	return st.launch(&ks[dtIndex(a.DType)], grid, block, shared, args, keep...)
}

// ArgMax implements tensorops' deviceArgMax: idx[r] is the index along
// the middle axis of the first maximum (first NaN) of row r of
// contiguous a [outer, n, inner] (n > 0).
func (backend) ArgMax(idx []int, a T.DeviceArray, outer, n, inner int) error {
	rows := outer * inner
	if rows == 0 {
		return nil
	}
	if len(idx) != rows {
		return fmt.Errorf("gpu: internal error: ArgMax of %d rows into %d indices", rows, len(idx))
	}
	st := buf(a).st
	ib, err := newBuffer(st, rows, 8)
	if err != nil {
		return err
	}
	if err := st.argmax(argmaxIndex, &a, nil, nil, ib, outer, n, inner); err != nil {
		return err
	}
	host := make([]int64, rows)
	err = st.l.DtoH(unsafe.Pointer(&host[0]), ib.ptr, 8*rows)
	runtime.KeepAlive(ib)
	if err != nil {
		return err
	}
	for i, v := range host {
		idx[i] = int(v)
	}
	return nil
}

// MaxGrad implements tensorops' deviceArgMax: dst (contiguous, a's
// shape) is zero except g[r] at the first maximum of each row r of
// contiguous a [outer, n, inner]; g is contiguous [outer, inner].
func (backend) MaxGrad(dst, a, g T.DeviceArray, outer, n, inner int) error {
	if outer*inner == 0 || n == 0 {
		return nil
	}
	return buf(a).st.argmax(argmaxMaxGrad, &a, &g, &dst, nil, outer, n, inner)
}

// MaxJVP implements tensorops' deviceArgMax: dst[r] (contiguous [outer,
// inner]) is da at the first maximum of row r of contiguous a [outer, n,
// inner]; da is contiguous, of a's shape.
func (backend) MaxJVP(dst, a, da T.DeviceArray, outer, n, inner int) error {
	if outer*inner == 0 || n == 0 {
		return nil
	}
	return buf(a).st.argmax(argmaxMaxJVP, &a, &da, &dst, nil, outer, n, inner)
}
