package gpu

import (
	"errors"
	"fmt"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// elemUnary declares the kernel pair that GAD_UNARY(name, ...) defines:
// (gad_geom g, T *d, const T *a, T p, T q).
func elemUnary(base string) [2]kernel {
	return pair(base, launch.KGeom, launch.KPtr, launch.KPtr, launch.KElem, launch.KElem)
}

// unaryOps are the kernels of kern/unary.h, by tensorops op name.
var unaryOps = map[string][2]kernel{
	"Copy":      elemUnary("gad_copy"),
	"Neg":       elemUnary("gad_neg"),
	"AddScalar": elemUnary("gad_add_scalar"),
	"Scale":     elemUnary("gad_scale"),
	"Affine":    elemUnary("gad_affine"),
	"ScalarDiv": elemUnary("gad_scalar_div"),
	"ReLU":      elemUnary("gad_relu"),
	"Abs":       elemUnary("gad_abs"),
	"Square":    elemUnary("gad_square"),
	"Sign":      elemUnary("gad_sign"),
	"Step":      elemUnary("gad_step"),
}

// Unary launches the kernel of op from unaryOps or unaryMathOps.
func (backend) Unary(op string, dst, a T.DeviceArray, p, q float64) error {
	ks, ok := unaryOps[op]
	if !ok {
		if ks, ok = unaryMathOps[op]; !ok {
			return fmt.Errorf("gpu: no kernel for %s: %w", op, errors.ErrUnsupported)
		}
	}
	g, err := geom(dst.Shape, dst.Strides, a.Strides)
	if err != nil {
		return err
	}
	st := buf(dst).st
	args := newArgs().Geom(g).Ptr(base(dst)).Ptr(base(a))
	if dst.DType == T.Float32 {
		args.F32(float32(p)).F32(float32(q))
	} else {
		args.F64(p).F64(q)
	}
	grid, block := st.elemConfig(int(g.N))
	return st.launch(&ks[dtIndex(dst.DType)], grid, block, 0, args, buf(dst), buf(a))
}
