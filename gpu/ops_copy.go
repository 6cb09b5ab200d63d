package gpu

import (
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/copy.h.
var (
	fillKernels = pair("gad_fill", launch.KGeom, launch.KPtr, launch.KElem)
	convF64F32  = kernel{"gad_convert_f64_f32", []launch.Kind{launch.KGeom, launch.KPtr, launch.KPtr}}
	convF32F64  = kernel{"gad_convert_f32_f64", []launch.Kind{launch.KGeom, launch.KPtr, launch.KPtr}}
	copyKernels = []kernel{fillKernels[0], fillKernels[1], convF64F32, convF32F64}
)

func (backend) Fill(dst T.DeviceArray, v float64) error {
	g, err := geom(dst.Shape, dst.Strides)
	if err != nil {
		return err
	}
	st := buf(dst).st
	args := newArgs().Geom(g).Ptr(base(dst))
	if dst.DType == T.Float32 {
		args.F32(float32(v))
	} else {
		args.F64(v)
	}
	grid, block := st.elemConfig(int(g.N))
	return st.launch(&fillKernels[dtIndex(dst.DType)], grid, block, 0, args, buf(dst))
}

func (backend) Convert(dst, src T.DeviceArray) error {
	g, err := geom(dst.Shape, dst.Strides, src.Strides)
	if err != nil {
		return err
	}
	k := &convF64F32
	if dst.DType == T.Float32 {
		k = &convF32F64
	}
	st := buf(dst).st
	args := newArgs().Geom(g).Ptr(base(dst)).Ptr(base(src))
	grid, block := st.elemConfig(int(g.N))
	return st.launch(k, grid, block, 0, args, buf(dst), buf(src))
}
