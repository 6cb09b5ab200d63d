package tensors

import (
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestLanes checks the derivatives along several directions per call
// (lanes=L, and the Hessian's vector JVP of the gradient) against the
// same along one direction at a time.
func TestLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := tensorops.Scale(tensorops.RandN(rng, dt, 3, 3), 0.4)
	var v [3]*tensorops.Tensor
	for l := range v {
		v[l] = tensorops.RandN(rng, dt, 3, 3)
	}
	same := func(what string, got, want *tensorops.Tensor) {
		t.Helper()
		if d := tensorops.MaxAbsDiff(got, want); !(d <= 1e-13) {
			t.Errorf("%s: differs by %v", what, d)
		}
	}

	f, h1, h2, h3 := QuadHVP3(x, v[0], v[1], v[2])
	close(t, "QuadHVP3's value", f, Quad(x), 0)
	for l, hv := range []*tensorops.Tensor{h1, h2, h3} {
		_, want := QuadHVP(x, v[l])
		same("QuadHVP3, direction "+string(rune('1'+l)), hv, want)
	}

	// Jets of degree 3 along 2 curves (seed jet), degree by degree.
	var c [3][2]*tensorops.Tensor // c[k][l]: coefficient k+1 of lane l
	for k := range c {
		for l := range c[k] {
			c[k][l] = tensorops.RandN(rng, dt, 3, 3)
		}
	}
	y, y11, y12, y21, y22, y31, y32 := QuadTaylor2(x, c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1])
	close(t, "QuadTaylor2's value", y, Quad(x), 0)
	got := [3][2]float64{{y11, y12}, {y21, y22}, {y31, y32}}
	for l := range 2 {
		_, w1, w2, w3 := QuadTaylor(x, c[0][l], c[1][l], c[2][l])
		for k, w := range []float64{w1, w2, w3} {
			close(t, "QuadTaylor2", got[k][l], w, 1e-13)
		}
	}
	// The same jets with their coefficients stacked, [2, 3, 3] each.
	stack := func(ts ...*tensorops.Tensor) *tensorops.Tensor {
		var parts []*tensorops.Tensor
		for _, t := range ts {
			parts = append(parts, tensorops.Unsqueeze(t, 0))
		}
		return tensorops.Concat(0, parts...)
	}
	ys, s1, s2, s3 := QuadTaylorStacked(x, stack(c[0][0], c[0][1]), stack(c[1][0], c[1][1]), stack(c[2][0], c[2][1]))
	close(t, "QuadTaylorStacked's value", ys, Quad(x), 0)
	for k, s := range []*tensorops.Tensor{s1, s2, s3} {
		if tensorops.IsLanes(s) || s.Size() != 2 {
			t.Fatalf("QuadTaylorStacked: coefficient %d of shape %v, marked %v", k+1, s.Shape(), tensorops.IsLanes(s))
		}
		for l := range 2 {
			close(t, "QuadTaylorStacked", s.At(l), got[k][l], 1e-13)
		}
	}
	zero := tensorops.ZerosLike(x)
	_, a11, a12, a21, a22 := QuadTaylorLine2(x, v[0], v[1])
	for l, g := range [][2]float64{{a11, a21}, {a12, a22}} {
		_, w1, w2, _ := QuadTaylor(x, v[l], zero, zero)
		close(t, "QuadTaylorLine2, coefficient 1", g[0], w1, 1e-13)
		close(t, "QuadTaylorLine2, coefficient 2", g[1], w2, 1e-13)
	}

	// A perceptron through a helper: the HVP against differences of the
	// gradient, the HVPs along 2 directions and the Hessian's rows (by
	// vector JVPs of the gradient, 8 per call: 12 inputs, 2 calls) against
	// the HVP.
	n := &Net{}
	for _, s := range [][2]int{{4, 5}, {5, 3}} {
		n.Layers = append(n.Layers, Layer{W: tensorops.RandN(rng, dt, s[0], s[1]), B: tensorops.RandN(rng, dt, s[1])})
	}
	xs := tensorops.RandN(rng, dt, 3, 4)
	u := tensorops.RandN(rng, dt, 3, 4)
	_, hv := NetOutHVP(n, xs, u)
	const hg = 1e-6
	_, gp := NetOutGrad(n, tensorops.Add(xs, tensorops.Scale(u, hg)))
	_, gm := NetOutGrad(n, tensorops.Add(xs, tensorops.Scale(u, -hg)))
	if d := tensorops.MaxAbsDiff(hv, tensorops.Scale(tensorops.Sub(gp, gm), 1/(2*hg))); !(d <= 1e-7) {
		t.Errorf("NetOutHVP differs from differences of the gradient by %v", d)
	}
	// The same products along the directions stacked in one tensor.
	vs := tensorops.Concat(0, tensorops.Unsqueeze(v[0], 0), tensorops.Unsqueeze(v[1], 0), tensorops.Unsqueeze(v[2], 0))
	fs, hs := QuadHVPStacked(x, vs)
	close(t, "QuadHVPStacked's value", fs, Quad(x), 0)
	if tensorops.IsLanes(hs) || hs.Dim(0) != 3 {
		t.Fatalf("QuadHVPStacked: %v directions, marked %v", hs.Shape(), tensorops.IsLanes(hs))
	}
	for l := range v {
		_, want := QuadHVP(x, v[l])
		same("QuadHVPStacked, direction "+string(rune('1'+l)), tensorops.Squeeze(tensorops.Slice(hs, 0, l, l+1), 0), want)
	}
	u2 := tensorops.RandN(rng, dt, 3, 4)
	us := tensorops.Concat(0, tensorops.Unsqueeze(u, 0), tensorops.Unsqueeze(u2, 0))
	_, ks := NetOutHVPStacked(n, xs, us)
	same("NetOutHVPStacked, direction 1", tensorops.Squeeze(tensorops.Slice(ks, 0, 0, 1), 0), hv)
	f, k1, k2 := NetOutHVP2(n, xs, u, u2)
	close(t, "NetOutHVP2's value", f, NetOut(n, xs), 0)
	same("NetOutHVP2, direction 1", k1, hv)
	_, hv2 := NetOutHVP(n, xs, u2)
	same("NetOutHVP2, direction 2", k2, hv2)
	same("NetOutHVPStacked, direction 2", tensorops.Squeeze(tensorops.Slice(ks, 0, 1, 2), 0), hv2)
	fn, n1, n2 := NetOutTaylorStacked(n, xs, us)
	close(t, "NetOutTaylorStacked's value", fn, NetOut(n, xs), 0)
	for l, d := range []*tensorops.Tensor{u, u2} {
		_, w1, w2 := NetOutTaylor(n, xs, d)
		close(t, "NetOutTaylorStacked, coefficient 1", n1.At(l), w1, 1e-12)
		close(t, "NetOutTaylorStacked, coefficient 2", n2.At(l), w2, 1e-12)
	}
	f, hess := NetOutHessian(n, xs)
	close(t, "NetOutHessian's value", f, NetOut(n, xs), 0)
	d := tensorops.Size(xs)
	if s := hess.Shape(); len(s) != 2 || s[0] != d || s[1] != d {
		t.Fatalf("NetOutHessian of shape %v, want [%d %d]", s, d, d)
	}
	for i := range d {
		_, row := NetOutHVP(n, xs, tensorops.Basis(xs, i))
		for j := range d {
			// (H + Hᵀ)/2 of rows equal to the HVPs up to rounding.
			close(t, "NetOutHessian", hess.At(i, j), row.Float64s()[j], 1e-12)
		}
	}

	// The loss along 2 directions in the model's weights, against the JVP.
	target := tensorops.RandN(rng, dt, 3, 3)
	dirs := [2]*Net{{}, {}}
	for l := range dirs {
		for _, ly := range n.Layers {
			dirs[l].Layers = append(dirs[l].Layers, Layer{W: tensorops.RandN(rng, dt, ly.W.Shape()...), B: tensorops.RandN(rng, dt, ly.B.Shape()...)})
		}
	}
	loss, d1, d2 := NetLossTaylor2(n, dirs[0], dirs[1], xs, target)
	close(t, "NetLossTaylor2's value", loss, NetLoss(n, xs, target), 0)
	for l, d := range []float64{d1, d2} {
		_, want := NetLossJVP(n, dirs[l], xs, target)
		close(t, "NetLossTaylor2", d, want, 1e-13)
	}
}
