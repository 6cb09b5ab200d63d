package gpu

import (
	"errors"
	"fmt"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// elemBinary declares the kernel pair that GAD_BINARY(name, ...)
// defines: (gad_geom g, T *d, const T *a, const T *b).
func elemBinary(base string) [2]kernel {
	return pair(base, launch.KGeom, launch.KPtr, launch.KPtr, launch.KPtr)
}

// binaryOps are the kernels of kern/binary.h, by tensorops op name.
var binaryOps = map[string][2]kernel{
	"Add":         elemBinary("gad_add"),
	"Sub":         elemBinary("gad_sub"),
	"Mul":         elemBinary("gad_mul"),
	"Div":         elemBinary("gad_div"),
	"Pow":         elemBinary("gad_pow"),
	"Maximum":     elemBinary("gad_maximum"),
	"Minimum":     elemBinary("gad_minimum"),
	"TanhGrad":    elemBinary("gad_tanh_grad"),
	"SigmoidGrad": elemBinary("gad_sigmoid_grad"),
	"ReLUGrad":    elemBinary("gad_relu_grad"),
	"GELUGrad":    elemBinary("gad_gelu_grad"),
	"SiLUGrad":    elemBinary("gad_silu_grad"),
}

func (backend) Binary(op string, dst, a, b T.DeviceArray) error {
	ks, ok := binaryOps[op]
	if !ok {
		return fmt.Errorf("gpu: no kernel for %s: %w", op, errors.ErrUnsupported)
	}
	g, err := geom(dst.Shape, dst.Strides, a.Strides, b.Strides)
	if err != nil {
		return err
	}
	st := buf(dst).st
	args := newArgs().Geom(g).Ptr(base(dst)).Ptr(base(a)).Ptr(base(b))
	grid, block := st.elemConfig(int(g.N))
	return st.launch(&ks[dtIndex(dst.DType)], grid, block, 0, args, buf(dst), buf(a), buf(b))
}
