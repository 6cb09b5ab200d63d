package tensorops

// This file defines stacked directions: the L directions of one call of a
// generated derivative (the tangents of an HVP along L vectors, the first
// Taylor coefficients of L jets) travel as one tensor [L, …] whose first
// axis is marked as the direction axis, so that a product by a weight
// matrix is one GEMM over all directions and an elementwise operation one
// pass, as a vmap would batch them.
//
// A marked tensor stands for L tensors of its trailing shape (its data
// shape). The operations that know the mark (the lane-aware ones, listed
// in gadgen's rule table) compute what L separate calls would, direction
// by direction, and mark their result; an operand without the mark is
// shared by every direction and broadcasts like numpy against the data
// shape, never against the direction axis. The mark is internal to
// generated code: Lanes marks a caller's [L, …] tensor on the way in and
// UnlanesLike removes it on the way out, so the tensors a caller sees
// are plain.

import "fmt"

// Lanes returns a view of v, a tensor [L, …] holding L directions of
// v's trailing shape, whose first axis is marked as the direction axis;
// nil for nil.
// It panics if v is 0-D or already marked.
func Lanes(v *Tensor) *Tensor {
	if v == nil {
		return nil
	}
	if len(v.shape) == 0 {
		panic("tensorops: Lanes: a 0-D tensor has no direction axis")
	}
	if v.lanes {
		panic(fmt.Sprintf("tensorops: Lanes: shape %v: the first axis is already the direction axis", v.shape))
	}
	w := v.view(v.shape, v.strides, v.offset)
	w.lanes = true
	return w
}

// IsLanes reports whether t's first axis is marked as the direction axis
// (Lanes).
func IsLanes(t *Tensor) bool { return t != nil && t.lanes }

// UnlanesLike returns t, the result of L directions of the shape of like's
// trailing axes, as a plain tensor [L, …] of like's shape: a view of a
// marked t, zeros of like's shape for a nil t (a zero result), and t
// repeated along the direction axis for an unmarked t (a result that no
// direction changed).
// It panics if like is nil or not marked, or t does not fit like.
func UnlanesLike(t, like *Tensor) *Tensor {
	if like == nil || !like.lanes {
		panic("tensorops: UnlanesLike: like must be a tensor of directions (Lanes)")
	}
	switch {
	case t == nil:
		return allocOn("UnlanesLike", like.dev, like.dtype, like.shape)
	case !t.lanes:
		return Broadcast(t, like.shape...)
	}
	if t.shape[0] != like.shape[0] {
		panic(fmt.Sprintf("tensorops: UnlanesLike: %d directions for %d", t.shape[0], like.shape[0]))
	}
	return t.plain()
}

// SumLanes returns the sum of t over its direction axis, a plain tensor
// of t's trailing shape; nil for nil. Collapsed Taylor mode sums the
// directions' second-order terms with it.
// It panics if t is not marked (Lanes).
func SumLanes(t *Tensor) *Tensor {
	if t == nil {
		return nil
	}
	if !t.lanes {
		panic(fmt.Sprintf("tensorops: SumLanes: shape %v: not a tensor of directions (Lanes)", t.shape))
	}
	return Sum(t.plain(), 0)
}

// plain returns a view of t without the direction mark.
func (t *Tensor) plain() *Tensor {
	if !t.lanes {
		return t
	}
	return t.view(t.shape, t.strides, t.offset)
}

// marked sets the direction mark on r, a fresh result, and returns it.
func marked(r *Tensor) *Tensor {
	if r != nil {
		r.lanes = true
	}
	return r
}

// remark gives r, a view of t, t's direction mark, and returns it.
func remark(r, t *Tensor) *Tensor {
	r.lanes = t.lanes
	return r
}

// dataShape returns t's shape without the direction axis.
func (t *Tensor) dataShape() []int {
	if t.lanes {
		return t.shape[1:]
	}
	return t.shape
}

// dataView returns a plain view of t's first direction's shape and
// strides at t's offset (the shape a like operand gives), or t itself
// when t is not marked.
func (t *Tensor) dataView() *Tensor {
	if !t.lanes {
		return t
	}
	return t.view(t.shape[1:], t.strides[1:], t.offset)
}

// laneCount returns the number of directions of the marked tensors among
// ts (nil ones skipped), 0 when none is marked.
// It panics if two marked tensors have different numbers.
func laneCount(op string, ts ...*Tensor) int {
	L := 0
	var first *Tensor
	for _, t := range ts {
		if t == nil || !t.lanes {
			continue
		}
		if first == nil {
			first, L = t, t.shape[0]
			continue
		}
		if t.shape[0] != L {
			panic(fmt.Sprintf("tensorops: %s: shapes %v and %v carry %d and %d directions", op, first.shape, t.shape, L, t.shape[0]))
		}
	}
	return L
}

// alignLanes returns a plain view of t with rank 1+r: a marked t gets
// unit axes after its direction axis, so that its data shape aligns with
// the other operands' trailing axes; an unmarked t is returned as is (its
// rank is at most r, and numpy's broadcasting repeats it along the
// direction axis).
func alignLanes(t *Tensor, r int) *Tensor {
	if t == nil || !t.lanes {
		return t
	}
	d := len(t.shape) - 1
	if d >= r {
		return t.plain()
	}
	shape := make([]int, 0, 1+r)
	strides := make([]int, 0, 1+r)
	shape = append(shape, t.shape[0])
	strides = append(strides, t.strides[0])
	for range r - d {
		shape = append(shape, 1)
		strides = append(strides, 0)
	}
	shape = append(shape, t.shape[1:]...)
	strides = append(strides, t.strides[1:]...)
	return t.view(shape, strides, t.offset)
}

// dataRank returns the rank of t's data shape (0 for nil).
func dataRank(t *Tensor) int {
	if t == nil {
		return 0
	}
	return len(t.dataShape())
}

// laneBinary is binary for operands of which one at least is marked.
func laneBinary(name string, op binOp, dst, a, b *Tensor) *Tensor {
	laneCount(name, a, b, dst)
	r := max(dataRank(a), dataRank(b))
	pd := dst
	if dst != nil {
		if !dst.lanes {
			panic(fmt.Sprintf("tensorops: %s: the destination of directions must be marked (Lanes)", name))
		}
		pd = dst.plain()
	}
	out := binary(name, op, pd, alignLanes(a, r), alignLanes(b, r))
	if out == pd {
		return dst
	}
	return marked(out)
}

// laneUnary is unary for a marked operand.
func laneUnary(name string, op unOp, dst, a *Tensor, p, q float64) *Tensor {
	pd := dst
	if dst != nil {
		laneCount(name, a, dst)
		if !dst.lanes {
			panic(fmt.Sprintf("tensorops: %s: the destination of directions must be marked (Lanes)", name))
		}
		pd = dst.plain()
	}
	out := unary(name, op, pd, a.plain(), p, q)
	if out == pd {
		return dst
	}
	return marked(out)
}

// laneFuse is fuse of the program p for operands ts (none nil) of
// which one at least, or dst, is marked: in one pass over aligned views
// where the program's shapes allow, else operation by operation through
// the lane-aware operations.
func laneFuse(p *fprog, dst *Tensor, ts []*Tensor, ss []float64) *Tensor {
	L := laneCount("Fuse", append(ts, dst)...)
	r := 0
	for _, t := range ts {
		r = max(r, dataRank(t))
	}
	var aligned [maxFuseArgs]*Tensor
	for i, t := range ts {
		aligned[i] = alignLanes(t, r)
	}
	shape, dt, ok := p.shape(aligned[:])
	if !ok || L == 0 || len(shape) != 1+r {
		return fresh(p.root.eval(ts, ss), dst, ts)
	}
	out := dst
	if out == nil || !out.lanes || !sameShape(out.shape, shape) || out.dtype != dt || out.dev != CPU || !out.IsContiguous() {
		out = marked(alloc(dt, shape))
	} else if out.sym {
		out.sym = false
	}
	if dt == Float32 {
		fuseApply[float32](p, out.plain(), aligned[:], ss)
	} else {
		fuseApply[float64](p, out.plain(), aligned[:], ss)
	}
	return out
}

// laneExpandLike is ExpandLike with a marked a or like.
func laneExpandLike(a, like *Tensor) *Tensor {
	L := laneCount("ExpandLike", a, like)
	ld := like.dataShape()
	if !a.lanes {
		return ExpandLike(a, like.dataView())
	}
	if sameShape(a.shape[1:], ld) {
		return a
	}
	if !broadcastsTo(a.shape[1:], ld) {
		panic(fmt.Sprintf("tensorops: ExpandLike: shapes %v and %v: the first does not broadcast to the second", a.shape[1:], ld))
	}
	return marked(Broadcast(alignLanes(a, len(ld)), append([]int{L}, ld...)...))
}

// laneSumLike is SumLike with a marked g or like.
func laneSumLike(g, like *Tensor) *Tensor {
	L := laneCount("SumLike", g, like)
	ld := like.dataShape()
	if !g.lanes {
		return SumLike(g, like.dataView())
	}
	gd := g.shape[1:]
	if sameShape(gd, ld) {
		return g
	}
	if !broadcastsTo(ld, gd) {
		panic(fmt.Sprintf("tensorops: SumLike: shapes %v and %v: like does not broadcast to g", gd, ld))
	}
	pad := len(gd) - len(ld)
	r, summed := g.plain(), false
	for i := 1; i < len(r.shape); i++ {
		want := 1
		if i-1 >= pad {
			want = ld[i-1-pad]
		}
		if want == 1 && r.shape[i] != 1 {
			r, summed = Unsqueeze(Sum(r, i), i), true
		}
	}
	if !summed {
		r = r.Clone() // a fresh result, as SumLike's
	}
	return marked(Reshape(r, append([]int{L}, ld...)...))
}

// withUnit returns a view of t, marked as t is, with a unit axis inserted
// before axis i of its shape (i = len(shape) appends one).
func (t *Tensor) withUnit(i int) *Tensor {
	shape := append(append(append(make([]int, 0, len(t.shape)+1), t.shape[:i]...), 1), t.shape[i:]...)
	strides := append(append(append(make([]int, 0, len(t.shape)+1), t.strides[:i]...), 0), t.strides[i:]...)
	v := t.view(shape, strides, t.offset)
	v.lanes = t.lanes
	return v
}

// asMatrix returns the operand t of a product as a matrix, or batch of
// matrices, marked as t is, and whether it was a vector: a vector [k]
// becomes [1, k] on the left and [k, 1] on the right, direction by
// direction.
func asMatrix(t *Tensor, left bool) (*Tensor, bool) {
	if dataRank(t) != 1 {
		return t, false
	}
	if left {
		return t.withUnit(len(t.shape) - 1), true
	}
	return t.withUnit(len(t.shape)), true
}

// batchRank returns the number of batch axes of a matrix operand,
// the direction axis not counted.
func batchRank(t *Tensor) int { return dataRank(t) - 2 }

// laneMatMul is MatMulT with a marked operand: each direction's product,
// in one batched product (one GEMM where a's directions stack their rows
// onto an unmarked matrix b).
func laneMatMul(op string, a, b *Tensor, ta, tb bool) *Tensor {
	L := laneCount(op, a, b)
	ma, aVec := asMatrix(a, true)
	mb, bVec := asMatrix(b, false)
	if aVec {
		ta = false
	}
	if bVec {
		tb = false
	}
	nb := max(batchRank(ma), batchRank(mb))
	out := matmulNew(op, alignLanes(ma, nb+2), alignLanes(mb, nb+2), ta, tb)
	shape := out.shape
	switch {
	case aVec && bVec:
		shape = shape[:len(shape)-2]
	case aVec:
		shape = append(shape[:len(shape)-2:len(shape)-2], shape[len(shape)-1])
	case bVec:
		shape = shape[:len(shape)-1]
	}
	if len(shape) != len(out.shape) {
		out = Reshape(out, shape...)
	}
	if len(out.shape) == 0 || out.shape[0] != L {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: the directions were lost", op, a.shape, b.shape))
	}
	return marked(out)
}

// productAdjointOperands returns the operands of the adjoints of
// MatMulT(a, b, ta, tb) for the result's adjoint g, as matrices (asMatrix:
// g gets the unit axes of a vector a or b), the flags that apply, and
// whether a and b were vectors.
func productAdjointOperands(g, a, b *Tensor, ta, tb bool) (mg, ma, mb *Tensor, ta2, tb2, aVec, bVec bool) {
	ma, aVec = asMatrix(a, true)
	mb, bVec = asMatrix(b, false)
	mg = g
	if bVec {
		mg = mg.withUnit(len(mg.shape))
		tb = false
	}
	if aVec {
		mg = mg.withUnit(len(mg.shape) - 1)
		ta = false
	}
	return mg, ma, mb, ta, tb, aVec, bVec
}

// laneMatMulGradA is MatMulGradA with a marked operand, direction by
// direction: g·op(b)ᵀ (op(b)·gᵀ when transA), summed to a's shape.
func laneMatMulGradA(g, a, b *Tensor, ta, tb bool) *Tensor {
	mg, ma, mb, ta, tb, aVec, _ := productAdjointOperands(g, a, b, ta, tb)
	var da *Tensor
	if !ta {
		da = MatMulT(mg, mb, false, !tb)
	} else {
		da = MatMulT(mb, mg, tb, true)
	}
	da = SumLike(da, ma)
	if aVec {
		da = remark(Reshape(da.plain(), append(da.shape[:len(da.shape)-2:len(da.shape)-2], da.shape[len(da.shape)-1])...), da)
	}
	return da
}

// laneMatMulGradB is MatMulGradB with a marked operand, direction by
// direction: op(a)ᵀ·g (gᵀ·op(a) when transB), summed to b's shape.
func laneMatMulGradB(g, a, b *Tensor, ta, tb bool) *Tensor {
	mg, ma, mb, ta, tb, _, bVec := productAdjointOperands(g, a, b, ta, tb)
	var db *Tensor
	if !tb {
		db = MatMulT(ma, mg, !ta, false)
	} else {
		db = MatMulT(mg, ma, true, ta)
	}
	db = SumLike(db, mb)
	if bVec {
		db = remark(Reshape(db.plain(), db.shape[:len(db.shape)-1]...), db)
	}
	return db
}

// laneAxis returns axis, an axis of t's data shape (negative counts from
// its end), as an axis of t's plain shape.
// It panics, naming op, if axis is out of range.
func laneAxis(op string, t *Tensor, axis int) int { return normAxis(op, t.dataView(), axis) + 1 }

// laneSum is Sum of a marked a: each direction's sum along axis.
func laneSum(a *Tensor, axis int) *Tensor {
	return marked(reduce("Sum", rSum, a.plain(), laneAxis("Sum", a, axis)))
}

// laneMean is Mean of a marked a.
func laneMean(a *Tensor, axis int) *Tensor {
	ax := laneAxis("Mean", a, axis)
	s := reduce("Mean", rSum, a.plain(), ax)
	return marked(ScaleTo(s, s, 1/float64(a.shape[ax])))
}

// laneReshape is Reshape of a marked a: each direction reshaped.
func laneReshape(a *Tensor, shape []int) *Tensor {
	return marked(Reshape(a.plain(), append([]int{a.shape[0]}, shape...)...))
}

// laneUnsqueeze is Unsqueeze of a marked a.
func laneUnsqueeze(a *Tensor, axis int) *Tensor {
	d := len(a.shape) - 1
	ax := axis
	if ax < 0 {
		ax += d + 1
	}
	if ax < 0 || ax > d {
		panic(fmt.Sprintf("tensorops: Unsqueeze: axis %d out of range for shape %v", axis, a.shape[1:]))
	}
	return marked(Unsqueeze(a.plain(), ax+1))
}

// lanePerm returns the permutation of a marked tensor's plain axes that
// applies perm (checked against its data shape; empty: reversed) to each
// direction.
func lanePerm(op string, a *Tensor, perm []int) []int {
	p := checkPerm(op, a.dataView(), perm)
	out := make([]int, 1, 1+len(p))
	for _, j := range p {
		out = append(out, j+1)
	}
	return out
}

// laneSoftmaxJVP is SoftmaxJVP with a marked s or dx: s ⊙ (dx − Σ_axis
// s ⊙ dx), direction by direction.
func laneSoftmaxJVP(s, dx *Tensor, axis int) *Tensor {
	laneCount("SoftmaxJVP", s, dx)
	if !sameShape(s.dataShape(), dx.dataShape()) {
		panic(fmt.Sprintf("tensorops: SoftmaxJVP: shapes %v and %v differ", s.dataShape(), dx.dataShape()))
	}
	ax := normAxis("SoftmaxJVP", s.dataView(), axis)
	return Mul(s, Sub(dx, Unsqueeze(Sum(Mul(s, dx), ax), ax)))
}

// laneLogSoftmaxJVP is LogSoftmaxJVP with a marked ls or dx: dx −
// Σ_axis exp(ls) ⊙ dx, direction by direction.
func laneLogSoftmaxJVP(ls, dx *Tensor, axis int) *Tensor {
	laneCount("LogSoftmaxJVP", ls, dx)
	if !sameShape(ls.dataShape(), dx.dataShape()) {
		panic(fmt.Sprintf("tensorops: LogSoftmaxJVP: shapes %v and %v differ", ls.dataShape(), dx.dataShape()))
	}
	ax := normAxis("LogSoftmaxJVP", ls.dataView(), axis)
	return Sub(dx, Unsqueeze(Sum(Mul(Exp(ls), dx), ax), ax))
}

// laneConcatJVP is ConcatJVP with marked tangents: each direction's
// tangents concatenated, a nil one zeros and an unmarked one the same
// for every direction.
func laneConcatJVP(axis int, ts, dts []*Tensor) *Tensor {
	L := laneCount("ConcatJVP", dts...)
	parts := make([]*Tensor, len(dts))
	for i, d := range dts {
		switch {
		case d == nil:
			mustNotNil("ConcatJVP", ts[i])
			parts[i] = alloc(ts[i].dtype, append([]int{L}, ts[i].shape...))
		case !d.lanes:
			parts[i] = Broadcast(d, append([]int{L}, d.shape...)...)
		default:
			parts[i] = d.plain()
		}
	}
	return marked(Concat(normAxis("ConcatJVP", ts[0], axis)+1, parts...))
}

// Scalars of directions. A float that depends on the directions (a sum of
// a tensor of directions, a tangent of a loss) is, per direction, a
// tensor [L] of directions of 0-D tensors: generated code computes with it
// by the lane-aware operations (Mul(a, s) scales a by each direction's s),
// and these give it.

// SumAllLanes returns the sum of each direction of a, a tensor of
// directions: a tensor of directions [L] of scalars (SumAll of each).
// A nil a is nil.
// It panics if a is not marked (Lanes).
func SumAllLanes(a *Tensor) *Tensor {
	if a == nil {
		return nil
	}
	mustLanes("SumAllLanes", a)
	return marked(Sum(Reshape(a.plain(), a.shape[0], -1), 1))
}

// MeanAllLanes returns the mean of each direction of a (MeanAll of each),
// as SumAllLanes.
func MeanAllLanes(a *Tensor) *Tensor {
	s := SumAllLanes(a)
	if s == nil {
		return nil
	}
	return ScaleTo(s, s, 1/float64(prod(a.shape[1:])))
}

// DotLanes returns Dot of each direction of a and b, one of which at
// least is a tensor of directions (the other shared by every direction):
// a tensor of directions [L] of scalars; nil when a or b is.
// It panics if neither is marked, or the data shapes differ.
func DotLanes(a, b *Tensor) *Tensor {
	if a == nil || b == nil {
		return nil
	}
	if !a.lanes && !b.lanes {
		panic("tensorops: DotLanes: neither operand is a tensor of directions (Lanes)")
	}
	if !sameShape(a.dataShape(), b.dataShape()) {
		panic(fmt.Sprintf("tensorops: DotLanes: shapes %v and %v differ", a.dataShape(), b.dataShape()))
	}
	return SumAllLanes(Mul(a, b))
}

// LaneSum returns the sum over the directions of s, a tensor of
// directions of scalars ([L]): collapsed Taylor mode's sum of the
// directions' second-order terms of a float. A nil s is 0.
// It panics if s is not a marked [L].
func LaneSum(s *Tensor) float64 {
	if s == nil {
		return 0
	}
	mustLanes("LaneSum", s)
	if len(s.shape) != 1 {
		panic(fmt.Sprintf("tensorops: LaneSum: shape %v: not directions of scalars", s.shape))
	}
	return SumAll(s.plain())
}

// mustLanes panics unless t is marked.
func mustLanes(op string, t *Tensor) {
	if !t.lanes {
		panic(fmt.Sprintf("tensorops: %s: shape %v: not a tensor of directions (Lanes)", op, t.shape))
	}
}

// ParamsBases returns the unit directions i … j−1, j = min(i+L,
// ParamsSize(like)), of the tensors like taken as one vector (as
// ParamsBasis orders them), stacked: for each like[j], a tensor of
// directions (marked, Lanes) [j−i, …like[j]'s shape] holding the
// directions' parts in that tensor, or nil where no direction falls in
// it (zero for every direction) or like[j] is nil. The second-order
// helpers of a struct of tensors seed stacked directions with it.
// It panics if i is not in [0, ParamsSize(like)) or L < 1.
func ParamsBases(like []*Tensor, i, L int) []*Tensor {
	n := ParamsSize(like)
	if i < 0 || i >= n || L < 1 {
		panic(fmt.Sprintf("tensorops: ParamsBases: directions %d to %d of %d elements", i, i+L, n))
	}
	m := min(L, n-i)
	out := make([]*Tensor, len(like))
	o := 0 // elements before like[j]
	for j, t := range like {
		if t == nil {
			continue
		}
		size := t.Size()
		lo, hi := max(i, o), min(i+m, o+size) // the directions in like[j]
		if lo < hi {
			e := alloc(t.dtype, append([]int{m}, t.shape...))
			for d := lo; d < hi; d++ {
				at := (d-i)*size + d - o
				if e.dtype == Float64 {
					e.f64[at] = 1
				} else {
					e.f32[at] = 1
				}
			}
			out[j] = marked(e.To(t.dev))
		}
		o += size
	}
	return out
}

// ParamsFlattenLanes returns the tensors ts, each holding stacked
// directions of the shape of like[j] (or shared by every direction, or
// nil for zero), as one plain [m, n] tensor: row l the direction l of
// every tensor flattened in order (ParamsFlatten's), n = ParamsSize(like).
// The number of directions m is that of the marked tensors of ts, or of
// units (the directions the call took) when none is.
// It panics if a tensor of ts does not have its like's shape, or the
// numbers of directions differ.
func ParamsFlattenLanes(ts, units, like []*Tensor) *Tensor {
	if len(ts) != len(like) {
		panic(fmt.Sprintf("tensorops: ParamsFlattenLanes: %d tensors for %d", len(ts), len(like)))
	}
	m := laneCount("ParamsFlattenLanes", ts...)
	if m == 0 {
		m = laneCount("ParamsFlattenLanes", units...)
	}
	dt, dev := paramsDType(like)
	var parts []*Tensor
	for j, l := range like {
		if l == nil {
			continue
		}
		t := ts[j]
		switch {
		case t == nil:
			t = allocOn("ParamsFlattenLanes", dev, dt, []int{m, l.Size()})
		case !t.lanes:
			if !sameShape(t.shape, l.shape) {
				panic(fmt.Sprintf("tensorops: ParamsFlattenLanes: tensor %d has shape %v, want %v", j, t.shape, l.shape))
			}
			t = Broadcast(Reshape(t, 1, l.Size()), m, l.Size())
		default:
			if !sameShape(t.shape[1:], l.shape) || t.shape[0] != m {
				panic(fmt.Sprintf("tensorops: ParamsFlattenLanes: tensor %d has shape %v, want %d directions of %v", j, t.shape, m, l.shape))
			}
			t = Reshape(t.plain(), m, l.Size())
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return allocOn("ParamsFlattenLanes", dev, dt, []int{m, 0})
	}
	if len(parts) == 1 {
		return parts[0].Clone()
	}
	return Concat(1, parts...)
}

// laneLike returns a plain view of like's data shape with a leading axis
// of L (stride 0): the shape, dtype and device of L directions of like,
// for the functions that read only those.
func laneLike(like *Tensor, L int) *Tensor {
	d := like.dataView()
	return d.view(append([]int{L}, d.shape...), append([]int{0}, d.strides...), d.offset)
}

// laneLikeAdjoint is op(g, like, axis), an adjoint along axis whose like
// operand gives only the shape (SliceGrad, PadGrad, GatherGrad,
// ExpandAxis), with a marked g or like: each direction's, in one call of
// op on g's directions and a view of like's shape with a leading axis of
// L; an unmarked g gives a result shared by every direction.
func laneLikeAdjoint(name string, g, like *Tensor, axis int, op func(g, like *Tensor, axis int) *Tensor) *Tensor {
	L := laneCount(name, g, like)
	if !g.lanes {
		return op(g, like.dataView(), axis)
	}
	ax := normAxis(name, like.dataView(), axis)
	return marked(op(g.plain(), laneLike(like, L), ax+1))
}

// LanesInto sets dst[at+l] = s·t_l for each direction l of t, a tensor of
// directions of scalars ([L], marked), and returns dst; a nil t (zero for
// every direction) sets nothing. The Hessian diagonal's helper stores
// the second coefficients of its stacked jets with it.
// It panics if t is not such a tensor or dst is too short.
func LanesInto(dst []float64, at int, s float64, t *Tensor) []float64 {
	if t == nil {
		return dst
	}
	mustLanes("LanesInto", t)
	if len(t.shape) != 1 || at < 0 || at+t.shape[0] > len(dst) {
		panic(fmt.Sprintf("tensorops: LanesInto: shape %v at %d of %d elements", t.shape, at, len(dst)))
	}
	for l, x := range floats64(t.plain().Contiguous()) {
		dst[at+l] = s * x
	}
	return dst
}

// UnlanesOf returns t, a tensor result along the directions of dirs (a
// tensor of directions), as a plain tensor [L, …]: a view of a marked t,
// t repeated along the direction axis for an unmarked t (a result no
// direction changed), nil for a nil t (zero). //gad:taylor lanes=stacked
// returns its tensors' coefficients so.
// It panics if dirs is not marked or the numbers of directions differ.
func UnlanesOf(t, dirs *Tensor) *Tensor {
	mustLanes("UnlanesOf", dirs)
	switch {
	case t == nil:
		return nil
	case !t.lanes:
		return Broadcast(t, append([]int{dirs.shape[0]}, t.shape...)...)
	}
	laneCount("UnlanesOf", t, dirs)
	return t.plain()
}

// UnlanesScalars returns t, the coefficients [L] of a float result along
// the directions of dirs (a tensor of directions of scalars, marked), as
// a plain tensor [L]: a view of t, zeros for a nil t. //gad:taylor
// lanes=stacked returns its floats' coefficients so.
// It panics if dirs or t is not marked, or the numbers differ.
func UnlanesScalars(t, dirs *Tensor) *Tensor {
	mustLanes("UnlanesScalars", dirs)
	if t == nil {
		return allocOn("UnlanesScalars", dirs.dev, dirs.dtype, []int{dirs.shape[0]})
	}
	mustLanes("UnlanesScalars", t)
	laneCount("UnlanesScalars", t, dirs)
	return t.plain()
}
