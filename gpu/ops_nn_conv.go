package gpu

import (
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// The kernels of kern/conv.h (listed in nnKernels).
var (
	convParams = []launch.Kind{launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64,
		launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KPtr, launch.KPtr}
	im2colKernels = pair("gad_im2col", convParams...)
	col2imKernels = pair("gad_col2im", convParams...)
)

// convArgs packs the sizes of g with nimg images.
func convArgs(nimg int, g T.Conv2DGeom) *launch.Args {
	return newArgs().I64(nimg).I64(g.C).I64(g.H).I64(g.W).I64(g.KH).I64(g.KW).I64(g.OH).I64(g.OW).I64(g.Stride).I64(g.Pad).I64(g.Dilation)
}

// Im2Col implements tensorops' deviceConv2D: cols [nimg, C·KH·KW, OH·OW]
// (contiguous) holds the patches of the nimg contiguous images x [nimg,
// C, H, W].
func (backend) Im2Col(cols, x T.DeviceArray, nimg int, g T.Conv2DGeom) error {
	n := nimg * g.C * g.KH * g.KW * g.OH * g.OW
	if n == 0 {
		return nil
	}
	st := buf(cols).st
	grid, block := st.elemConfig(n)
	args := convArgs(nimg, g).Ptr(base(x)).Ptr(base(cols))
	return st.launch(&im2colKernels[dtIndex(cols.DType)], grid, block, 0, args, buf(x), buf(cols))
}

// Col2Im implements tensorops' deviceConv2D: x [nimg, C, H, W]
// (contiguous) is the sum of the patches cols [nimg, C·KH·KW, OH·OW]
// (contiguous) that read each of its elements.
func (backend) Col2Im(x, cols T.DeviceArray, nimg int, g T.Conv2DGeom) error {
	n := nimg * g.C * g.H * g.W
	if n == 0 {
		return nil
	}
	st := buf(x).st
	grid, block := st.elemConfig(n)
	args := convArgs(nimg, g).Ptr(base(cols)).Ptr(base(x))
	return st.launch(&col2imKernels[dtIndex(x.DType)], grid, block, 0, args, buf(cols), buf(x))
}
