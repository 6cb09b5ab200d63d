//go:build goexperiment.simd && amd64

package tensorops

// This file defines tanh32Slice with AVX2 (Go's experimental SIMD support,
// GOEXPERIMENT=simd): eight float32 elements at a time, by the operations
// of tanh32 in the same order (no fused multiply-adds), so that its results
// are tanh32's bit for bit (TestTanh32Slice) and fused and separate Tanh
// stay identical. Built without the experiment, or on a CPU without AVX2,
// the scalar loop (tanh32_nosimd.go) serves.

import "simd/archsimd"

// tanh32Slice sets d[i] = tanh32(a[i]); len(d) == len(a).
func tanh32Slice(d, a []float32) {
	n := 0
	if archsimd.X86.AVX2() {
		n = len(a) &^ 7
		tanh32x8(d[:n], a[:n])
	}
	for i := n; i < len(a); i++ {
		d[i] = tanh32(a[i])
	}
}

// tanh32x8 is tanh32Slice for a multiple of 8 elements.
func tanh32x8(d, a []float32) {
	b := archsimd.BroadcastFloat32x8
	zero, one, two, half := b(0), b(1), b(2), b(0.5)
	big, small, polyEnd := b(9.1), b(0.0625), b(0.34657359)
	log2e, hi, lo := b(log2e32), b(ln2Hi32), b(ln2Lo32)
	s1, s2, s3 := b(-1.0/3), b(2.0/15), b(-17.0/315)
	c8, c7, c6, c5, c4, c3, c2, c1 := b(1.0/40320), b(1.0/5040), b(1.0/720), b(1.0/120), b(1.0/24), b(1.0/6), b(0.5), b(1)
	bias := archsimd.BroadcastInt32x8(127)
	for i := 0; i+8 <= len(a); i += 8 {
		x := archsimd.LoadFloat32x8Slice(a[i : i+8])
		neg := x.Less(zero)
		ax := x.Merge(zero.Sub(x), x.GreaterEqual(zero)) // |x|, NaN kept
		y := ax.Add(ax)                                  // 2|x|, exact
		// expm1(y): the polynomial alone up to ln2/2, else e^y − 1 with
		// e^y = 2ⁿ·(1 + expPoly(r)) (0 < y ≤ 18.2: 2ⁿ is normal).
		nf := y.Mul(log2e).Add(half).Trunc()
		r := y.Sub(nf.Mul(hi)).Sub(nf.Mul(lo))
		pow := nf.ConvertToInt32().Add(bias).ShiftAllLeft(23).AsFloat32x8()
		p := c8.Mul(r).Add(c7).Mul(r).Add(c6).Mul(r).Add(c5).Mul(r).Add(c4).Mul(r).Add(c3).Mul(r).Add(c2).Mul(r).Add(c1).Mul(r)
		ex := one.Add(p).Mul(pow).Sub(one)
		q := c8.Mul(y).Add(c7).Mul(y).Add(c6).Mul(y).Add(c5).Mul(y).Add(c4).Mul(y).Add(c3).Mul(y).Add(c2).Mul(y).Add(c1).Mul(y)
		e := q.Merge(ex, y.LessEqual(polyEnd))
		t := e.Div(e.Add(two))
		t = zero.Sub(t).Merge(t, neg) // copysign
		// Small |x|: the odd series; large: ±1.
		x2 := x.Mul(x)
		ser := x.Add(x.Mul(x2).Mul(s1.Add(x2.Mul(s2.Add(x2.Mul(s3))))))
		t = ser.Merge(t, ax.Less(small))
		t = zero.Sub(one).Merge(one, neg).Merge(t, ax.Greater(big))
		t.StoreSlice(d[i : i+8])
	}
}
