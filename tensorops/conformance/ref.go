package conformance

import (
	"math"
)

// arr is the suite's reference array: row-major float64 elements and a
// shape. The reference ops below are nested loops over multi-indices,
// written independently of tensorops' kernels.
type arr struct {
	shape []int
	v     []float64
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func newArr(shape ...int) *arr {
	return &arr{shape: append([]int{}, shape...), v: make([]float64, numel(shape))}
}

func (a *arr) clone() *arr {
	return &arr{shape: append([]int{}, a.shape...), v: append([]float64{}, a.v...)}
}

// flat returns the row-major position of idx.
func (a *arr) flat(idx []int) int {
	p := 0
	for i, x := range idx {
		p = p*a.shape[i] + x
	}
	return p
}

func (a *arr) at(idx []int) float64     { return a.v[a.flat(idx)] }
func (a *arr) set(idx []int, x float64) { a.v[a.flat(idx)] = x }

// forEach calls f with every multi-index of shape in row-major order (once
// with an empty index for a 0-d shape; never for an empty shape). f must
// not keep idx.
func forEach(shape []int, f func(idx []int)) {
	if numel(shape) == 0 {
		return
	}
	idx := make([]int, len(shape))
	for {
		f(idx)
		i := len(shape) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// bshape returns the numpy broadcast of two shapes, or nil, false.
func bshape(a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range out {
		da, db := 1, 1
		if j := i - (n - len(a)); j >= 0 {
			da = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			db = b[j]
		}
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// bidx maps an index of a broadcast result to an index of shape.
func bidx(idx, shape []int) []int {
	off := len(idx) - len(shape)
	r := make([]int, len(shape))
	for i := range shape {
		if shape[i] != 1 {
			r[i] = idx[off+i]
		}
	}
	return r
}

func refUnary(a *arr, f func(float64) float64) *arr {
	r := newArr(a.shape...)
	for i, x := range a.v {
		r.v[i] = f(x)
	}
	return r
}

func refBinary(a, b *arr, f func(x, y float64) float64) *arr {
	s, ok := bshape(a.shape, b.shape)
	if !ok {
		panic("conformance: shapes do not broadcast")
	}
	r := newArr(s...)
	forEach(s, func(idx []int) {
		r.set(idx, f(a.at(bidx(idx, a.shape)), b.at(bidx(idx, b.shape))))
	})
	return r
}

// refBroadcast returns a broadcast to shape.
func refBroadcast(a *arr, shape []int) *arr {
	r := newArr(shape...)
	forEach(shape, func(idx []int) { r.set(idx, a.at(bidx(idx, a.shape))) })
	return r
}

func normAx(ax, n int) int {
	if ax < 0 {
		return ax + n
	}
	return ax
}

func dropAxis(shape []int, ax int) []int {
	s := append([]int{}, shape[:ax]...)
	return append(s, shape[ax+1:]...)
}

// insertAxis returns idx with x inserted at ax.
func insertAxis(idx []int, ax, x int) []int {
	r := append([]int{}, idx[:ax]...)
	r = append(r, x)
	return append(r, idx[ax:]...)
}

// refReduce reduces a along ax with f over the values in order.
func refReduce(a *arr, ax int, f func(vals []float64) float64) *arr {
	ax = normAx(ax, len(a.shape))
	out := newArr(dropAxis(a.shape, ax)...)
	vals := make([]float64, a.shape[ax])
	forEach(out.shape, func(idx []int) {
		for j := range vals {
			vals[j] = a.at(insertAxis(idx, ax, j))
		}
		out.set(idx, f(vals))
	})
	return out
}

func fsum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

func fmean(v []float64) float64 { return fsum(v) / float64(len(v)) }

func fmax(v []float64) float64 { return v[fargmax(v)] }

func fargmax(v []float64) int {
	b := 0
	for j, x := range v {
		if x > v[b] {
			b = j
		}
	}
	return b
}

func flse(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// refAlong applies f to each 1-D fibre of a along ax, in place of a copy.
func refAlong(a *arr, ax int, f func(vals []float64)) *arr {
	ax = normAx(ax, len(a.shape))
	r := a.clone()
	vals := make([]float64, a.shape[ax])
	forEach(dropAxis(a.shape, ax), func(idx []int) {
		for j := range vals {
			vals[j] = r.at(insertAxis(idx, ax, j))
		}
		f(vals)
		for j := range vals {
			r.set(insertAxis(idx, ax, j), vals[j])
		}
	})
	return r
}

func refSoftmax(a *arr, ax int) *arr {
	return refAlong(a, ax, func(v []float64) {
		l := flse(v)
		for j := range v {
			v[j] = math.Exp(v[j] - l)
		}
	})
}

func refLogSoftmax(a *arr, ax int) *arr {
	return refAlong(a, ax, func(v []float64) {
		l := flse(v)
		for j := range v {
			v[j] -= l
		}
	})
}

func refTranspose(a *arr, perm []int) *arr {
	n := len(a.shape)
	if len(perm) == 0 {
		perm = make([]int, n)
		for i := range perm {
			perm[i] = n - 1 - i
		}
	}
	s := make([]int, n)
	for i, p := range perm {
		s[i] = a.shape[p]
	}
	r := newArr(s...)
	src := make([]int, n)
	forEach(s, func(idx []int) {
		for i, p := range perm {
			src[p] = idx[i]
		}
		r.set(idx, a.at(src))
	})
	return r
}

// refSumTo sums a (whose shape like's broadcasts to) down to like's shape.
func refSumTo(a *arr, like []int) *arr {
	r := newArr(like...)
	forEach(a.shape, func(idx []int) {
		j := bidx(idx, like)
		r.set(j, r.at(j)+a.at(idx))
	})
	return r
}

// refMatT returns the matrices of a (≥2-D) with the last two axes swapped.
func refMatT(a *arr) *arr {
	n := len(a.shape)
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	p[n-2], p[n-1] = n-1, n-2
	return refTranspose(a, p)
}

// refMatMul is numpy's matmul of op(a) and op(b) by the definition.
func refMatMul(a, b *arr, ta, tb bool) *arr {
	aVec, bVec := len(a.shape) == 1, len(b.shape) == 1
	if aVec {
		a = &arr{shape: []int{1, a.shape[0]}, v: a.v}
		ta = false
	}
	if bVec {
		b = &arr{shape: []int{b.shape[0], 1}, v: b.v}
		tb = false
	}
	if ta {
		a = refMatT(a)
	}
	if tb {
		b = refMatT(b)
	}
	na, nb := len(a.shape), len(b.shape)
	m, k, n := a.shape[na-2], a.shape[na-1], b.shape[nb-1]
	batch, ok := bshape(a.shape[:na-2], b.shape[:nb-2])
	if !ok || b.shape[nb-2] != k {
		panic("conformance: bad matmul shapes")
	}
	full := append(append([]int{}, batch...), m, n)
	r := newArr(full...)
	ai := make([]int, na)
	bi := make([]int, nb)
	forEach(full, func(idx []int) {
		bt := idx[:len(batch)]
		copy(ai, bidx(bt, a.shape[:na-2]))
		copy(bi, bidx(bt, b.shape[:nb-2]))
		s := 0.0
		for p := 0; p < k; p++ {
			ai[na-2], ai[na-1] = idx[len(batch)], p
			bi[nb-2], bi[nb-1] = p, idx[len(batch)+1]
			s += a.at(ai) * b.at(bi)
		}
		r.set(idx, s)
	})
	out := append([]int{}, batch...)
	if !aVec {
		out = append(out, m)
	}
	if !bVec {
		out = append(out, n)
	}
	r.shape = out
	return r
}

// refMatMulGrads returns the adjoints of MatMulT(a, b, ta, tb) for g, by the
// definition: dop(a) = g·op(b)ᵀ, dop(b) = op(a)ᵀ·g per batch, transposed back
// when the flag is set and summed over the batch broadcasting.
func refMatMulGrads(g, a, b *arr, ta, tb bool) (da, db *arr) {
	aVec, bVec := len(a.shape) == 1, len(b.shape) == 1
	a2, b2 := a, b
	if aVec {
		a2 = &arr{shape: []int{1, a.shape[0]}, v: a.v}
		ta = false
	}
	if bVec {
		b2 = &arr{shape: []int{b.shape[0], 1}, v: b.v}
		tb = false
	}
	opA, opB := a2, b2
	if ta {
		opA = refMatT(a2)
	}
	if tb {
		opB = refMatT(b2)
	}
	batch, _ := bshape(opA.shape[:len(opA.shape)-2], opB.shape[:len(opB.shape)-2])
	m, n := opA.shape[len(opA.shape)-2], opB.shape[len(opB.shape)-1]
	g2 := &arr{shape: append(append([]int{}, batch...), m, n), v: g.v}
	dOpA := refMatMul(g2, refMatT(opB), false, false) // batch + [m, k]
	dOpB := refMatMul(refMatT(opA), g2, false, false) // batch + [k, n]
	if len(dOpA.shape) < 2 {
		panic("conformance: internal error")
	}
	if ta {
		dOpA = refMatT(dOpA)
	}
	if tb {
		dOpB = refMatT(dOpB)
	}
	da = refSumTo(dOpA, a2.shape)
	db = refSumTo(dOpB, b2.shape)
	da.shape, db.shape = append([]int{}, a.shape...), append([]int{}, b.shape...)
	return da, db
}

// refConv2D returns Conv2DDilated(x, w, stride, pad, dil) (Conv2D for
// dil 1) by its definition.
func refConv2D(x, w *arr, stride, pad, dil int) *arr {
	n, c, h, wd := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	o, kh, kw := w.shape[0], w.shape[2], w.shape[3]
	oh, ow := (h+2*pad-dil*(kh-1)-1)/stride+1, (wd+2*pad-dil*(kw-1)-1)/stride+1
	r := newArr(n, o, oh, ow)
	for b := 0; b < n; b++ {
		for f := 0; f < o; f++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					s := 0.0
					for ch := 0; ch < c; ch++ {
						for p := 0; p < kh; p++ {
							for q := 0; q < kw; q++ {
								y, xx := i*stride+p*dil-pad, j*stride+q*dil-pad
								if y < 0 || y >= h || xx < 0 || xx >= wd {
									continue
								}
								s += x.at([]int{b, ch, y, xx}) * w.at([]int{f, ch, p, q})
							}
						}
					}
					r.set([]int{b, f, i, j}, s)
				}
			}
		}
	}
	return r
}

// refConv2DGrads returns the adjoints of Conv2DDilated(x, w, stride, pad,
// dil) for g by the definition: every product x·w of the sum sends g·w to
// x and g·x to w.
func refConv2DGrads(g, x, w *arr, stride, pad, dil int) (dx, dw *arr) {
	n, c, h, wd := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	o, kh, kw := w.shape[0], w.shape[2], w.shape[3]
	oh, ow := g.shape[2], g.shape[3]
	dx, dw = newArr(x.shape...), newArr(w.shape...)
	for b := 0; b < n; b++ {
		for f := 0; f < o; f++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					gv := g.at([]int{b, f, i, j})
					for ch := 0; ch < c; ch++ {
						for p := 0; p < kh; p++ {
							for q := 0; q < kw; q++ {
								y, xx := i*stride+p*dil-pad, j*stride+q*dil-pad
								if y < 0 || y >= h || xx < 0 || xx >= wd {
									continue
								}
								xi, wi := []int{b, ch, y, xx}, []int{f, ch, p, q}
								dx.set(xi, dx.at(xi)+gv*w.at(wi))
								dw.set(wi, dw.at(wi)+gv*x.at(xi))
							}
						}
					}
				}
			}
		}
	}
	return dx, dw
}
