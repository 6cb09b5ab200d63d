package tensorops

import "fmt"

// convGeom is the geometry of a 2-D convolution.
type convGeom struct {
	n, c, h, w     int // input
	o, kh, kw      int // filters
	oh, ow         int // output
	stride, pad    int
	dil            int // dilation: the taps of a filter are dil elements apart
	ckk, spatial   int // c·kh·kw, oh·ow
	xShape, wShape []int
}

func convShape(op string, x, w *Tensor, stride, pad, dil int) convGeom {
	mustNotNil(op, x, w)
	onDevice(op, x, w)
	mustSameDType(op, x, w)
	if len(x.shape) != 4 || len(w.shape) != 4 || x.shape[1] != w.shape[1] {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: want x [n c h w] and w [o c kh kw] with the same c", op, x.shape, w.shape))
	}
	if stride < 1 || pad < 0 {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: stride %d must be ≥ 1 and pad %d ≥ 0", op, x.shape, w.shape, stride, pad))
	}
	if dil < 1 {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: dilation %d must be ≥ 1", op, x.shape, w.shape, dil))
	}
	g := convGeom{n: x.shape[0], c: x.shape[1], h: x.shape[2], w: x.shape[3],
		o: w.shape[0], kh: w.shape[2], kw: w.shape[3], stride: stride, pad: pad, dil: dil,
		xShape: x.shape, wShape: w.shape}
	ekh, ekw := g.extent(g.kh), g.extent(g.kw)
	if g.h+2*pad < ekh || g.w+2*pad < ekw {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: the kernel is larger than the padded input (pad %d, dilation %d)", op, x.shape, w.shape, pad, dil))
	}
	g.oh = (g.h+2*pad-ekh)/stride + 1
	g.ow = (g.w+2*pad-ekw)/stride + 1
	g.ckk = g.c * g.kh * g.kw
	g.spatial = g.oh * g.ow
	return g
}

// extent returns the span of k taps dil elements apart: dil·(k−1)+1 (k
// when dil is 1; 0 for no tap).
func (g *convGeom) extent(k int) int {
	if k == 0 {
		return 0
	}
	return g.dil*(k-1) + 1
}

// im2col writes the patches of one image x [c, h, w] into cols
// [c·kh·kw, oh·ow]; positions in the padding are 0.
func im2col[T Float](g *convGeom, cols, x []T) {
	for ch := 0; ch < g.c; ch++ {
		for p := 0; p < g.kh; p++ {
			for q := 0; q < g.kw; q++ {
				row := cols[((ch*g.kh+p)*g.kw+q)*g.spatial:][:g.spatial]
				for i := 0; i < g.oh; i++ {
					y := i*g.stride + p*g.dil - g.pad
					r := row[i*g.ow : (i+1)*g.ow]
					if y < 0 || y >= g.h {
						clear(r)
						continue
					}
					src := x[(ch*g.h+y)*g.w:][:g.w]
					for j := range r {
						xx := j*g.stride + q*g.dil - g.pad
						if xx < 0 || xx >= g.w {
							r[j] = 0
						} else {
							r[j] = src[xx]
						}
					}
				}
			}
		}
	}
}

// col2im adds the patches cols [c·kh·kw, oh·ow] back into one image x.
func col2im[T Float](g *convGeom, x, cols []T) {
	for ch := 0; ch < g.c; ch++ {
		for p := 0; p < g.kh; p++ {
			for q := 0; q < g.kw; q++ {
				row := cols[((ch*g.kh+p)*g.kw+q)*g.spatial:][:g.spatial]
				for i := 0; i < g.oh; i++ {
					y := i*g.stride + p*g.dil - g.pad
					if y < 0 || y >= g.h {
						continue
					}
					dst := x[(ch*g.h+y)*g.w:][:g.w]
					r := row[i*g.ow : (i+1)*g.ow]
					for j, v := range r {
						if xx := j*g.stride + q*g.dil - g.pad; xx >= 0 && xx < g.w {
							dst[xx] += v
						}
					}
				}
			}
		}
	}
}

// colsOf returns the im2col matrix [c·kh·kw, oh·ow] of image b of x.
func colsOf(g *convGeom, x *Tensor, b int) *Tensor {
	cols := alloc(x.dtype, []int{g.ckk, g.spatial})
	img := g.c * g.h * g.w
	if x.dtype == Float32 {
		im2col(g, cols.f32, x.f32[x.offset+b*img:][:img])
	} else {
		im2col(g, cols.f64, x.f64[x.offset+b*img:][:img])
	}
	return cols
}

// Conv2D returns the 2-D cross-correlation of x [n, c, h, w] (NCHW) with
// the filters w [o, c, kh, kw], with the given stride and zero padding on
// every side: the result is [n, o, oh, ow] with oh = (h+2·pad−kh)/stride+1
// (likewise ow). It goes through im2col and one GEMM per image. It is
// bilinear: nil for a nil x or w.
// It panics if x or w is not 4-D, the channels differ, stride < 1,
// pad < 0, the kernel exceeds the padded input or the dtypes differ.
func Conv2D(x, w *Tensor, stride, pad int) *Tensor {
	if x == nil || w == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	return conv2D("Conv2D", x, w, stride, pad, 1)
}

// conv2D is Conv2D with dilation dil, op naming the public function in
// panics.
func conv2D(op string, x, w *Tensor, stride, pad, dil int) *Tensor {
	g := convShape(op, x, w, stride, pad, dil)
	if x.dev != CPU {
		return conv2DDevice(&g, x, w)
	}
	xc, wc := x.Contiguous(), w.Contiguous()
	out := alloc(x.dtype, []int{g.n, g.o, g.oh, g.ow})
	wm := wc.view([]int{g.o, g.ckk}, []int{g.ckk, 1}, wc.offset)
	for b := 0; b < g.n; b++ {
		cols := colsOf(&g, xc, b)
		ob := out.view([]int{g.o, g.spatial}, []int{g.spatial, 1}, b*g.o*g.spatial)
		gemmBatched(ob, 1, wm, false, cols, false, 0)
	}
	return out
}

func convGradShape(op string, gr, x, w *Tensor, stride, pad, dil int) convGeom {
	g := convShape(op, x, w, stride, pad, dil)
	mustSameDType(op, gr, x)
	what := "g must have Conv2D's result shape"
	if dil != 1 {
		what = "g must have Conv2DDilated's result shape"
	}
	mustShape(op, gr, []int{g.n, g.o, g.oh, g.ow}, what)
	return g
}

// Conv2DGradX returns the adjoint of Conv2D(x, w, stride, pad) with respect
// to x for the result's adjoint g (x's shape); nil when g or w is nil (it
// is bilinear in g and w).
// It panics as Conv2D does or if g does not have Conv2D's result shape.
func Conv2DGradX(g, x, w *Tensor, stride, pad int) *Tensor {
	if g == nil || w == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	return conv2DGradX("Conv2DGradX", g, x, w, stride, pad, 1)
}

// conv2DGradX is Conv2DGradX with dilation dil.
func conv2DGradX(op string, g, x, w *Tensor, stride, pad, dil int) *Tensor {
	geo := convGradShape(op, g, x, w, stride, pad, dil)
	if onDevice(op, g, x) {
		return conv2DGradXDevice(&geo, g, x, w)
	}
	gc, wc := g.Contiguous(), w.Contiguous()
	wm := wc.view([]int{geo.o, geo.ckk}, []int{geo.ckk, 1}, wc.offset)
	dx := alloc(x.dtype, x.shape)
	cols := alloc(x.dtype, []int{geo.ckk, geo.spatial})
	img := geo.c * geo.h * geo.w
	for b := 0; b < geo.n; b++ {
		gb := gc.view([]int{geo.o, geo.spatial}, []int{geo.spatial, 1}, gc.offset+b*geo.o*geo.spatial)
		gemmBatched(cols, 1, wm, true, gb, false, 0)
		if x.dtype == Float32 {
			col2im(&geo, dx.f32[b*img:][:img], cols.f32)
		} else {
			col2im(&geo, dx.f64[b*img:][:img], cols.f64)
		}
	}
	return dx
}

// Conv2DGradW returns the adjoint of Conv2D(x, w, stride, pad) with respect
// to w for the result's adjoint g (w's shape); nil when g or x is nil (it
// is bilinear in g and x).
// It panics as Conv2D does or if g does not have Conv2D's result shape.
func Conv2DGradW(g, x, w *Tensor, stride, pad int) *Tensor {
	if g == nil || x == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	return conv2DGradW("Conv2DGradW", g, x, w, stride, pad, 1)
}

// conv2DGradW is Conv2DGradW with dilation dil.
func conv2DGradW(op string, g, x, w *Tensor, stride, pad, dil int) *Tensor {
	geo := convGradShape(op, g, x, w, stride, pad, dil)
	if onDevice(op, g, x) {
		return conv2DGradWDevice(&geo, g, x, w)
	}
	gc, xc := g.Contiguous(), x.Contiguous()
	dw := alloc(w.dtype, w.shape)
	dwm := dw.view([]int{geo.o, geo.ckk}, []int{geo.ckk, 1}, 0)
	for b := 0; b < geo.n; b++ {
		cols := colsOf(&geo, xc, b)
		gb := gc.view([]int{geo.o, geo.spatial}, []int{geo.spatial, 1}, gc.offset+b*geo.o*geo.spatial)
		gemmBatched(dwm, 1, gb, false, cols, true, 1)
	}
	return dw
}

// Conv2DDilated returns the 2-D cross-correlation of x [n, c, h, w]
// (NCHW) with the filters w [o, c, kh, kw] whose taps are dilation
// elements apart (atrous convolution), with the given stride and zero
// padding on every side: result[b, f, i, j] = Σ x[b, ch, i·stride +
// p·dilation − pad, j·stride + q·dilation − pad]·w[f, ch, p, q], of shape
// [n, o, oh, ow] with oh = (h + 2·pad − dilation·(kh−1) − 1)/stride + 1
// (likewise ow), as PyTorch's conv2d with dilation. Conv2DDilated(x, w,
// stride, pad, 1) is Conv2D(x, w, stride, pad). It is bilinear: nil for a
// nil x or w.
// It panics if x or w is not 4-D, the channels differ, stride < 1,
// pad < 0, dilation < 1, the dilated kernel exceeds the padded input or
// the dtypes differ.
func Conv2DDilated(x, w *Tensor, stride, pad, dilation int) *Tensor {
	if x == nil || w == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	return conv2D("Conv2DDilated", x, w, stride, pad, dilation)
}

// Conv2DDilatedGradX returns the adjoint of Conv2DDilated(x, w, stride,
// pad, dilation) with respect to x for the result's adjoint g (x's
// shape; x gives only the shape); nil when g or w is nil (it is bilinear
// in g and w).
// It panics as Conv2DDilated does or if g does not have its result shape.
func Conv2DDilatedGradX(g, x, w *Tensor, stride, pad, dilation int) *Tensor {
	if g == nil || w == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	return conv2DGradX("Conv2DDilatedGradX", g, x, w, stride, pad, dilation)
}

// Conv2DDilatedGradW returns the adjoint of Conv2DDilated(x, w, stride,
// pad, dilation) with respect to w for the result's adjoint g (w's
// shape; w gives only the shape); nil when g or x is nil (it is bilinear
// in g and x).
// It panics as Conv2DDilated does or if g does not have its result shape.
func Conv2DDilatedGradW(g, x, w *Tensor, stride, pad, dilation int) *Tensor {
	if g == nil || x == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	return conv2DGradW("Conv2DDilatedGradW", g, x, w, stride, pad, dilation)
}

// Conv2DGeom is the geometry of a 2-D convolution as a device backend
// sees it (deviceConv2D): images [C, H, W], filters [·, C, KH, KW],
// results [·, OH, OW], with Stride, zero padding Pad on every side and
// the taps of a filter Dilation elements apart (1: adjacent).
type Conv2DGeom struct {
	C, H, W, KH, KW, OH, OW, Stride, Pad, Dilation int
}

// deviceConv2D is implemented by device backends that compute Conv2D and
// its adjoints on the device: the patch matrices there, their products
// by GEMM.
type deviceConv2D interface {
	// Im2Col sets cols [nimg, C·KH·KW, OH·OW] (contiguous) to the
	// patches of the nimg contiguous images x [nimg, C, H, W] (im2col).
	Im2Col(cols, x DeviceArray, nimg int, g Conv2DGeom) error
	// Col2Im sets x [nimg, C, H, W] (contiguous) to the sum of the
	// patches of cols [nimg, C·KH·KW, OH·OW] (contiguous) that read each
	// element, added in col2im's order.
	Col2Im(x, cols DeviceArray, nimg int, g Conv2DGeom) error
}

// convChunk is the most elements of the patch matrices of a batch of
// images that the device paths hold at once.
const convChunk = 1 << 24

func (g *convGeom) dev() Conv2DGeom {
	return Conv2DGeom{C: g.c, H: g.h, W: g.w, KH: g.kh, KW: g.kw, OH: g.oh, OW: g.ow, Stride: g.stride, Pad: g.pad, Dilation: g.dil}
}

// convChunks calls f for the batches [b0, b0+nb) of g's images whose
// patch matrices, of at most convChunk elements (at least one image),
// are cols [nb, ckk, spatial].
func convChunks(op string, g *convGeom, dev Device, dt DType, f func(b0, nb int, cols *Tensor)) {
	per := max(g.ckk*g.spatial, 1)
	nb := min(g.n, max(convChunk/per, 1))
	if nb == 0 {
		return
	}
	buf := allocOn(op, dev, dt, []int{nb, g.ckk, g.spatial})
	for b0 := 0; b0 < g.n; b0 += nb {
		m := min(nb, g.n-b0)
		f(b0, m, buf.view([]int{m, g.ckk, g.spatial}, rowMajor([]int{m, g.ckk, g.spatial}), 0))
	}
}

// batchView returns images [b0, b0+nb) of contiguous t [n, a, b] as a
// contiguous [nb, a, b].
func batchView(t *Tensor, b0, nb, a, b int) *Tensor {
	sh := []int{nb, a, b}
	return t.view(sh, rowMajor(sh), t.offset+b0*a*b)
}

// conv2DDevice is Conv2D on a device: cols of a batch of images, then a
// GEMM per image with the filters [o, ckk].
func conv2DDevice(g *convGeom, x, w *Tensor) *Tensor {
	const op = "Conv2D"
	be := devExt[deviceConv2D](op, x.dev)
	xc, wc := x.Contiguous(), w.Contiguous()
	out := allocOn(op, x.dev, x.dtype, []int{g.n, g.o, g.oh, g.ow})
	wm := wc.view([]int{g.o, g.ckk}, []int{g.ckk, 1}, wc.offset)
	img := g.c * g.h * g.w
	convChunks(op, g, x.dev, x.dtype, func(b0, nb int, cols *Tensor) {
		devFail(op, x.dev, be.Im2Col(cols.arr(), batchView(xc, b0, nb, 1, img).arr(), nb, g.dev()))
		gemmBatched(batchView(out, b0, nb, g.o, g.spatial), 1, wm, false, cols, false, 0)
	})
	return out
}

// conv2DGradXDevice is Conv2DGradX on a device: the cols of a batch of
// images by a GEMM per image, wᵀ·g, then summed into the images (col2im).
func conv2DGradXDevice(geo *convGeom, g, x, w *Tensor) *Tensor {
	const op = "Conv2DGradX"
	be := devExt[deviceConv2D](op, x.dev)
	gc, wc := g.Contiguous(), w.Contiguous()
	wm := wc.view([]int{geo.o, geo.ckk}, []int{geo.ckk, 1}, wc.offset)
	dx := allocOn(op, x.dev, x.dtype, x.shape)
	img := geo.c * geo.h * geo.w
	convChunks(op, geo, x.dev, x.dtype, func(b0, nb int, cols *Tensor) {
		gemmBatched(cols, 1, wm, true, batchView(gc, b0, nb, geo.o, geo.spatial), false, 0)
		devFail(op, x.dev, be.Col2Im(batchView(dx, b0, nb, 1, img).arr(), cols.arr(), nb, geo.dev()))
	})
	return dx
}

// conv2DGradWDevice is Conv2DGradW on a device: Σ over the images of
// g·colsᵀ, by GEMMs accumulating into dw [o, ckk].
func conv2DGradWDevice(geo *convGeom, g, x, w *Tensor) *Tensor {
	const op = "Conv2DGradW"
	be := devExt[deviceConv2D](op, x.dev)
	gc, xc := g.Contiguous(), x.Contiguous()
	dw := zerosOn(op, w.dev, w.dtype, w.shape)
	dwm := dw.view([]int{geo.o, geo.ckk}, []int{geo.ckk, 1}, 0)
	img := geo.c * geo.h * geo.w
	convChunks(op, geo, x.dev, x.dtype, func(b0, nb int, cols *Tensor) {
		devFail(op, x.dev, be.Im2Col(cols.arr(), batchView(xc, b0, nb, 1, img).arr(), nb, geo.dev()))
		gemmBatched(dwm, 1, batchView(gc, b0, nb, geo.o, geo.spatial), false, cols, true, 1)
	})
	return dw
}
