package gpu

import (
	"errors"
	"fmt"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/pooling.h (tensorops' devicePool2D): max pooling in
// three modes and average pooling and its adjoint.
var (
	poolParams     = []launch.Kind{launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64}
	maxpoolKernels = pair("gad_maxpool", append(poolParams, launch.KPtr, launch.KPtr, launch.KPtr)...)
	avgpoolKernels = pair("gad_avgpool", append(poolParams, launch.KPtr, launch.KPtr)...)

	poolKernels = []kernel{maxpoolKernels[0], maxpoolKernels[1], avgpoolKernels[0], avgpoolKernels[1]}
)

// poolModes are the mode (max pooling) or grad (average pooling)
// parameters of the pooling ops.
var poolModes = map[string]int{"MaxPool2D": 0, "MaxPool2DJVP": 1, "MaxPool2DGrad": 2, "AvgPool2D": 0, "AvgPool2DGrad": 1}

// Pool2D implements tensorops' devicePool2D: op of planes contiguous
// planes x (src the tangent or adjoint max pooling's helpers read, dst
// the result), with the kernels of pooling.h.
func (backend) Pool2D(op string, dst, x, src T.DeviceArray, planes int, g T.Pool2DGeom) error {
	mode, ok := poolModes[op]
	if !ok {
		return fmt.Errorf("gpu: no kernel for %s: %w", op, errors.ErrUnsupported)
	}
	n := 1
	for _, d := range dst.Shape {
		n *= d
	}
	if n == 0 {
		return nil
	}
	st := buf(dst).st
	grid, block := st.elemConfig(n)
	args := newArgs().I64(mode).I64(planes).I64(g.H).I64(g.W).I64(g.OH).I64(g.OW).I64(g.Size).I64(g.Stride).I64(g.Pad)
	keep := []*buffer{buf(dst), buf(x)}
	ks := &avgpoolKernels
	args.Ptr(base(x))
	if op[:3] == "Max" {
		ks = &maxpoolKernels
		if src.Buf != nil {
			args.Ptr(base(src))
			keep = append(keep, buf(src))
		} else {
			args.Ptr(0)
		}
	}
	args.Ptr(base(dst))
	return st.launch(&ks[dtIndex(dst.DType)], grid, block, 0, args, keep...)
}
