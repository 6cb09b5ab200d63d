package tensorops

// This file defines 2-D max and average pooling over the spatial axes of
// NCHW tensors, with square windows, a stride and zero padding on every
// side as Conv2D's, and the helpers of their derivative rules.

import "fmt"

// poolGeom is the geometry of a 2-D pooling of x [n, c, h, w]: planes =
// n·c images of h×w, windows of size×size every stride elements, pad on
// every side, and an output of oh×ow per plane.
type poolGeom struct {
	planes, h, w, oh, ow int
	size, stride, pad    int
	xShape               []int
}

func poolShape(op string, x *Tensor, size, stride, pad int) poolGeom {
	mustNotNil(op, x)
	if len(x.shape) != 4 {
		panic(fmt.Sprintf("tensorops: %s: shape %v: want x [n c h w]", op, x.shape))
	}
	if size < 1 || stride < 1 || pad < 0 || 2*pad > size {
		panic(fmt.Sprintf("tensorops: %s: shape %v: size %d and stride %d must be ≥ 1, pad %d in [0, size/2]", op, x.shape, size, stride, pad))
	}
	g := poolGeom{planes: x.shape[0] * x.shape[1], h: x.shape[2], w: x.shape[3],
		size: size, stride: stride, pad: pad, xShape: x.shape}
	if g.h == 0 || g.w == 0 {
		panic(fmt.Sprintf("tensorops: %s: shape %v: the spatial axes are empty", op, x.shape))
	}
	if g.h+2*pad < size || g.w+2*pad < size {
		panic(fmt.Sprintf("tensorops: %s: shape %v: the window (size %d) is larger than the padded input (pad %d)", op, x.shape, size, pad))
	}
	g.oh = (g.h+2*pad-size)/stride + 1
	g.ow = (g.w+2*pad-size)/stride + 1
	return g
}

// poolArgs returns the geometry of op's pooling of x, after checking
// that t, a tangent of x (ofX) or an adjoint of the result, has x's dtype
// and its shape (else it panics with what).
func poolArgs(op string, x, t *Tensor, size, stride, pad int, ofX bool, what string) poolGeom {
	g := poolShape(op, x, size, stride, pad)
	mustSameDType(op, x, t)
	if ofX {
		mustShape(op, t, x.shape, what)
	} else {
		mustShape(op, t, g.outShape(), what)
	}
	return g
}

// outShape returns the shape of the pooled result, [n, c, oh, ow].
func (g *poolGeom) outShape() []int { return []int{g.xShape[0], g.xShape[1], g.oh, g.ow} }

// window returns the rows [y0, y1) and columns [x0, x1) of the input
// that window (i, j) covers (the padding excluded).
func (g *poolGeom) window(i, j int) (y0, y1, x0, x1 int) {
	y, x := i*g.stride-g.pad, j*g.stride-g.pad
	return max(y, 0), min(y+g.size, g.h), max(x, 0), min(x+g.size, g.w)
}

// covering returns the windows [i0, i1) along one axis that cover input
// position y: i·stride − pad ≤ y < i·stride − pad + size, 0 ≤ i < n.
func (g *poolGeom) covering(y, n int) (i0, i1 int) {
	lo := y + g.pad - g.size + 1 // i·stride ≥ lo
	if lo > 0 {
		i0 = (lo + g.stride - 1) / g.stride
	}
	return i0, min((y+g.pad)/g.stride+1, n)
}

// windowArgMax returns the index (y·w + x) in the plane p of the first
// maximum of window (i, j) in row-major order, or of its first NaN.
// Every window holds at least one element of the input (pad ≤ size/2).
func windowArgMax[T Float](g *poolGeom, p []T, i, j int) int {
	y0, y1, x0, x1 := g.window(i, j)
	best := y0*g.w + x0
	m := p[best]
	if m != m {
		return best
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			k := y*g.w + x
			if v := p[k]; v > m {
				m, best = v, k
			} else if v != v {
				return k
			}
		}
	}
	return best
}

// Pool2DGeom is the geometry of a 2-D pooling as a device backend sees
// it (devicePool2D): planes of H×W, square windows of Size every Stride
// elements with Pad on every side, results of OH×OW per plane.
type Pool2DGeom struct {
	H, W, OH, OW, Size, Stride, Pad int
}

func (g *poolGeom) dev() Pool2DGeom {
	return Pool2DGeom{H: g.h, W: g.w, OH: g.oh, OW: g.ow, Size: g.size, Stride: g.stride, Pad: g.pad}
}

// devicePool2D is implemented by device backends that compute the
// pooling ops on the device.
type devicePool2D interface {
	// Pool2D computes op on planes contiguous planes x (and src, when
	// the op reads one), of the shapes the op names:
	//   - "MaxPool2D": dst [OH, OW] the maximum of each window of x
	//     [H, W] (the first maximum in row-major order; the first NaN);
	//   - "MaxPool2DJVP": dst [OH, OW] src [H, W] at the window's
	//     maximum;
	//   - "MaxPool2DGrad": dst [H, W] the sum of src [OH, OW] over the
	//     windows whose maximum the element is, in row-major order of
	//     the windows (as MaxPool2DGrad on the CPU adds them);
	//   - "AvgPool2D": dst [OH, OW] the sum of each window of x [H, W],
	//     accumulated in float64 in row-major order, divided by Size²;
	//   - "AvgPool2DGrad": dst [H, W] the sum of x [OH, OW] (the adjoint)
	//     over the windows covering the element, accumulated in float64
	//     in row-major order of the windows, divided by Size².
	// The average pooling ops read no src.
	// dst, x and src are contiguous and of one dtype.
	Pool2D(op string, dst, x, src DeviceArray, planes int, g Pool2DGeom) error
}

// poolDevice runs op of devicePool2D: dst of shape shape, x and src made
// contiguous (src may be nil).
func poolDevice(op string, g *poolGeom, x, src *Tensor, shape []int) *Tensor {
	be := devExt[devicePool2D](op, x.dev)
	out := allocOn(op, x.dev, x.dtype, shape)
	if prod(shape) == 0 {
		return out
	}
	s := DeviceArray{}
	if src != nil {
		s = src.Contiguous().arr()
	}
	devFail(op, x.dev, be.Pool2D(op, out.arr(), x.Contiguous().arr(), s, g.planes, g.dev()))
	return out
}

type maxMode uint8

const (
	maxValue maxMode = iota // the maximum of each window
	maxJVP                  // the tangent at each window's maximum
	maxGrad                 // the adjoint scattered to the maxima
)

// maxPool runs mode of max pooling on the CPU: x and other (the tangent,
// or the adjoint; nil for maxValue) contiguous, out fresh.
func maxPool[T Float](mode maxMode, g *poolGeom, out, x, other *Tensor) {
	xs := data[T](x)[x.offset:]
	var os []T
	if other != nil {
		os = data[T](other)[other.offset:]
	}
	od := data[T](out)
	in, res := g.h*g.w, g.oh*g.ow
	parallelRows(g.planes, res*g.size*g.size, grainMath, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			p := xs[pl*in : (pl+1)*in]
			for i := 0; i < g.oh; i++ {
				for j := 0; j < g.ow; j++ {
					k := windowArgMax(g, p, i, j)
					r := pl*res + i*g.ow + j
					switch mode {
					case maxValue:
						od[r] = p[k]
					case maxJVP:
						od[r] = os[pl*in+k]
					case maxGrad:
						od[pl*in+k] += os[r]
					}
				}
			}
		}
	})
}

// maxPoolOp is MaxPool2D, MaxPool2DJVP and MaxPool2DGrad: other is the
// tangent or the adjoint (checked by the caller).
func maxPoolOp(op string, mode maxMode, g *poolGeom, x, other *Tensor) *Tensor {
	shape := g.outShape()
	if mode == maxGrad {
		shape = x.shape
	}
	if onDevice(op, x, other) {
		return poolDevice(op, g, x, other, shape)
	}
	out := alloc(x.dtype, shape)
	var oc *Tensor
	if other != nil {
		oc = other.Contiguous()
	}
	if x.dtype == Float32 {
		maxPool[float32](mode, g, out, x.Contiguous(), oc)
	} else {
		maxPool[float64](mode, g, out, x.Contiguous(), oc)
	}
	return out
}

// MaxPool2D returns the maximum of x [n, c, h, w] (NCHW) over square
// windows of size×size taken every stride elements along the two spatial
// axes, with pad on every side: the result is [n, c, oh, ow] with
// oh = (h+2·pad−size)/stride+1 (likewise ow). The padding never wins (it
// counts as −Inf, as in PyTorch), and pad ≤ size/2 keeps an element of x
// in every window. NaN propagates. The derivative goes to the first
// maximum of each window in row-major order (MaxPool2DJVP,
// MaxPool2DGrad), as Max's goes to the first maximum along its axis.
// It panics if x is nil or not 4-D, h or w is 0, size < 1, stride < 1,
// pad < 0, pad > size/2, or the window exceeds the padded input.
func MaxPool2D(x *Tensor, size, stride, pad int) *Tensor {
	g := poolShape("MaxPool2D", x, size, stride, pad)
	return maxPoolOp("MaxPool2D", maxValue, &g, x, nil)
}

// MaxPool2DJVP returns dx (x's shape) taken at the maximum of each window
// of MaxPool2D(x, size, stride, pad) (the first in row-major order): the
// tangent of MaxPool2D, of its result's shape; nil when dx is nil.
// It panics as MaxPool2D does, or if dx's shape or dtype is not x's.
func MaxPool2DJVP(x, dx *Tensor, size, stride, pad int) *Tensor {
	if dx == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	const op = "MaxPool2DJVP"
	g := poolArgs(op, x, dx, size, stride, pad, true, "dx must have x's shape")
	return maxPoolOp(op, maxJVP, &g, x, dx)
}

// MaxPool2DGrad returns the adjoint of MaxPool2D(x, size, stride, pad)
// with respect to x for the result's adjoint g: zeros of x's shape with
// g's elements added at the maximum of their windows (overlapping windows
// whose maximum is the same element add up); nil when g is nil. It is
// the transpose of MaxPool2DJVP in its tangent.
// It panics as MaxPool2D does, or if g's shape is not MaxPool2D's result
// shape or its dtype is not x's.
func MaxPool2DGrad(x, g *Tensor, size, stride, pad int) *Tensor {
	if g == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	const op = "MaxPool2DGrad"
	geo := poolArgs(op, x, g, size, stride, pad, false, "g must have MaxPool2D's result shape")
	return maxPoolOp(op, maxGrad, &geo, x, g)
}

// avgPool computes AvgPool2D (grad false: out [planes, oh, ow] from src
// [planes, h, w]) or AvgPool2DGrad (grad true: out [planes, h, w] from
// src [planes, oh, ow]) on the CPU, src contiguous: each output element
// is a gather, summed in float64 in row-major order and divided by size².
func avgPool[T Float](grad bool, g *poolGeom, out, src *Tensor) {
	ss := data[T](src)[src.offset:]
	od := data[T](out)
	in, res := g.h*g.w, g.oh*g.ow
	area := float64(g.size * g.size)
	parallelRows(g.planes, max(in, res)*g.size*g.size, grainMath, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			if !grad {
				p, o := ss[pl*in:(pl+1)*in], od[pl*res:(pl+1)*res]
				for i := 0; i < g.oh; i++ {
					for j := 0; j < g.ow; j++ {
						y0, y1, x0, x1 := g.window(i, j)
						s := 0.0
						for y := y0; y < y1; y++ {
							for _, v := range p[y*g.w+x0 : y*g.w+x1] {
								s += float64(v)
							}
						}
						o[i*g.ow+j] = T(s / area)
					}
				}
				continue
			}
			gp, o := ss[pl*res:(pl+1)*res], od[pl*in:(pl+1)*in]
			for y := 0; y < g.h; y++ {
				i0, i1 := g.covering(y, g.oh)
				for x := 0; x < g.w; x++ {
					j0, j1 := g.covering(x, g.ow)
					s := 0.0
					for i := i0; i < i1; i++ {
						for _, v := range gp[i*g.ow+j0 : i*g.ow+j1] {
							s += float64(v)
						}
					}
					o[y*g.w+x] = T(s / area)
				}
			}
		}
	})
}

// avgPoolOp is AvgPool2D and AvgPool2DGrad: src is x or g.
func avgPoolOp(op string, grad bool, g *poolGeom, src *Tensor) *Tensor {
	shape := g.outShape()
	if grad {
		shape = g.xShape
	}
	if src.dev != CPU {
		return poolDevice(op, g, src, nil, shape)
	}
	out := alloc(src.dtype, shape)
	if src.dtype == Float32 {
		avgPool[float32](grad, g, out, src.Contiguous())
	} else {
		avgPool[float64](grad, g, out, src.Contiguous())
	}
	return out
}

// AvgPool2D returns the mean of x [n, c, h, w] (NCHW) over square windows
// of size×size taken every stride elements along the two spatial axes,
// with zero padding pad on every side, as MaxPool2D's windows: the result
// is [n, c, oh, ow]. The padding counts: every window's sum is divided by
// size², also where it overlaps the padding (PyTorch's default,
// count_include_pad=True). Sums are accumulated in float64. It is linear
// in x: AvgPool2D(nil, …) is nil.
// It panics if x is not 4-D, h or w is 0, size < 1, stride < 1, pad < 0,
// pad > size/2 or the window exceeds the padded input.
func AvgPool2D(x *Tensor, size, stride, pad int) *Tensor {
	if x == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	g := poolShape("AvgPool2D", x, size, stride, pad)
	return avgPoolOp("AvgPool2D", false, &g, x)
}

// AvgPool2DGrad returns the adjoint of AvgPool2D(x, size, stride, pad)
// with respect to x for the result's adjoint g (x's shape): each element
// of x receives the sum of g over the windows that cover it, divided by
// size²; nil when g is nil. x gives only the shape. It is linear in g,
// and AvgPool2D is its transpose.
// It panics as AvgPool2D does, or if g's shape is not AvgPool2D's result
// shape or its dtype is not x's.
func AvgPool2DGrad(g, x *Tensor, size, stride, pad int) *Tensor {
	if g == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	const op = "AvgPool2DGrad"
	geo := poolArgs(op, x, g, size, stride, pad, false, "g must have AvgPool2D's result shape")
	onDevice(op, g, x)
	return avgPoolOp(op, true, &geo, g)
}
