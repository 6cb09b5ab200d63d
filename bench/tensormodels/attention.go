package tensormodels

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// Attention is a one-head self-attention block with a residual and a
// layer norm before and after: o = x + softmax(q·kᵀ/√d)·v·Wo with q, k, v
// the products of layerNorm(x, G1, B1) by Wq, Wk, Wv; the output
// layerNorm(o, G2, B2).
type Attention struct {
	G1, B1, Wq, Wk, Wv, Wo, G2, B2 *tensorops.Tensor
}

// lnEps is the layer norm's ε.
const lnEps = 1e-5

// layerNorm normalizes each row of x to mean 0 and variance 1 (the
// biased variance, ε added), then scales the columns by g and shifts them
// by b.
func layerNorm(x, g, b *tensorops.Tensor) *tensorops.Tensor {
	mu := tensorops.Mean(x, -1)
	xc := tensorops.Sub(x, tensorops.Unsqueeze(mu, -1))
	v := tensorops.Mean(tensorops.Square(xc), -1)
	xn := tensorops.Div(xc, tensorops.Unsqueeze(tensorops.Sqrt(tensorops.AddScalar(v, lnEps)), -1))
	return tensorops.Add(tensorops.Mul(xn, g), b)
}

// AttentionLoss is the mean squared difference between the block's output
// on the sequence x (rows are positions) and the target y.
//
//gad:grad wrt=m
func AttentionLoss(m *Attention, x, y *tensorops.Tensor) float64 {
	h := layerNorm(x, m.G1, m.B1)
	q := tensorops.MatMul(h, m.Wq)
	k := tensorops.MatMul(h, m.Wk)
	v := tensorops.MatMul(h, m.Wv)
	scale := 1 / math.Sqrt(float64(tensorops.Dim(x, -1)))
	a := tensorops.Softmax(tensorops.Scale(tensorops.MatMulT(q, k, false, true), scale), -1)
	o := tensorops.Add(x, tensorops.MatMul(tensorops.MatMul(a, v), m.Wo))
	r := tensorops.Sub(layerNorm(o, m.G2, m.B2), y)
	return tensorops.MeanAll(tensorops.Mul(r, r))
}

// AttentionHandGrad is the backpropagation a programmer writes for
// AttentionLoss: it returns the loss and adds the gradient into g's
// tensors.
func AttentionHandGrad(m, g *Attention, x, y *tensorops.Tensor) float64 {
	h, xn1, _ := layerNormSaved(x, m.G1, m.B1)
	q := tensorops.MatMul(h, m.Wq)
	k := tensorops.MatMul(h, m.Wk)
	v := tensorops.MatMul(h, m.Wv)
	scale := 1 / math.Sqrt(float64(tensorops.Dim(x, -1)))
	a := tensorops.MatMulT(q, k, false, true)
	tensorops.ScaleTo(a, a, scale)
	a = tensorops.Softmax(a, -1)
	z := tensorops.MatMul(a, v)
	o := tensorops.Add(x, tensorops.MatMul(z, m.Wo))
	out, xn2, inv2 := layerNormSaved(o, m.G2, m.B2)
	r := tensorops.SubTo(out, out, y)
	loss := tensorops.MeanAll(tensorops.Mul(r, r))

	dr := tensorops.ScaleTo(r, r, 2/float64(tensorops.Size(r)))
	do := layerNormBack(dr, xn2, inv2, m.G2, g.G2, g.B2)
	// o = x + z·Wo, x fixed.
	tensorops.Gemm(g.Wo, 1, z, true, do, false, 1)
	dz := tensorops.MatMulT(do, m.Wo, false, true)
	dv := tensorops.MatMulT(a, dz, true, false)
	da := tensorops.MatMulT(dz, v, false, true)
	// Softmax's Jacobian is symmetric: its adjoint is its tangent map.
	ds := tensorops.SoftmaxJVP(a, da, -1)
	tensorops.ScaleTo(ds, ds, scale)
	dq := tensorops.MatMul(ds, k)
	dk := tensorops.MatMulT(ds, q, true, false)
	tensorops.Gemm(g.Wq, 1, h, true, dq, false, 1)
	tensorops.Gemm(g.Wk, 1, h, true, dk, false, 1)
	tensorops.Gemm(g.Wv, 1, h, true, dv, false, 1)
	dh := tensorops.MatMulT(dq, m.Wq, false, true)
	tensorops.Gemm(dh, 1, dk, false, m.Wk, true, 1)
	tensorops.Gemm(dh, 1, dv, false, m.Wv, true, 1)
	// x is fixed: layerNorm(x)'s adjoint goes to G1 and B1 only.
	tensorops.AddInto(g.G1, tensorops.Sum(tensorops.Mul(dh, xn1), 0))
	tensorops.AddInto(g.B1, tensorops.Sum(dh, 0))
	return loss
}

// layerNormSaved is layerNorm returning also what its adjoint needs: the
// normalized rows xn and the inverse deviations inv (a column).
func layerNormSaved(x, g, b *tensorops.Tensor) (out, xn, inv *tensorops.Tensor) {
	xc := tensorops.Sub(x, tensorops.Unsqueeze(tensorops.Mean(x, -1), -1))
	inv = tensorops.Unsqueeze(tensorops.ScalarDiv(1, tensorops.Sqrt(tensorops.AddScalar(tensorops.Mean(tensorops.Square(xc), -1), lnEps))), -1)
	xn = tensorops.MulTo(xc, xc, inv)
	return tensorops.Add(tensorops.Mul(xn, g), b), xn, inv
}

// layerNormBack adds the adjoints of g and b into dg and db for the
// output's adjoint d and returns x's: with n = d ⊙ g,
// inv ⊙ (n − mean(n) − xn ⊙ mean(n ⊙ xn)), the means along rows.
func layerNormBack(d, xn, inv, g, dg, db *tensorops.Tensor) *tensorops.Tensor {
	tensorops.AddInto(dg, tensorops.Sum(tensorops.Mul(d, xn), 0))
	tensorops.AddInto(db, tensorops.Sum(d, 0))
	n := tensorops.Mul(d, g)
	c := tensorops.Mean(tensorops.Mul(n, xn), -1)
	dx := tensorops.SubTo(n, n, tensorops.Unsqueeze(tensorops.Mean(n, -1), -1))
	dx = tensorops.SubTo(dx, dx, tensorops.Mul(xn, tensorops.Unsqueeze(c, -1)))
	return tensorops.MulTo(dx, dx, inv)
}

// AttentionSizes are the sequence's length and the model's width.
type AttentionSizes struct {
	Seq, Dim int
}

// NewAttention returns the block with projections drawn from N(0, 1/d),
// gains from N(1, 0.01) and shifts from N(0, 0.01), a sequence x and a
// target y drawn from N(0, 1), from seed.
func NewAttention(s AttentionSizes, seed uint64) (m *Attention, x, y *tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 2))
	d := s.Dim
	w := func() *tensorops.Tensor { return normal(rng, 1/math.Sqrt(float64(d)), d, d) }
	gain := func() *tensorops.Tensor { return tensorops.AddScalar(normal(rng, 0.1, d), 1) }
	m = &Attention{G1: gain(), B1: normal(rng, 0.1, d), Wq: w(), Wk: w(), Wv: w(), Wo: w(), G2: gain(), B2: normal(rng, 0.1, d)}
	return m, normal(rng, 1, s.Seq, d), normal(rng, 1, s.Seq, d)
}

// Params returns m's tensors in the order of its fields.
func (m *Attention) Params() []*tensorops.Tensor {
	return []*tensorops.Tensor{m.G1, m.B1, m.Wq, m.Wk, m.Wv, m.Wo, m.G2, m.B2}
}

// attentionOf returns the block whose tensors are ps, in the order of
// Params.
func attentionOf(ps []*tensorops.Tensor) *Attention {
	return &Attention{G1: ps[0], B1: ps[1], Wq: ps[2], Wk: ps[3], Wv: ps[4], Wo: ps[5], G2: ps[6], B2: ps[7]}
}

func attentionCase(s AttentionSizes, seed uint64) Case {
	m, x, y := NewAttention(s, seed)
	return Case{
		Name: "self-attention, layerNorm helper", Size: fmt.Sprintf("seq %d × dim %d, one head", s.Seq, s.Dim),
		Params: m.Params(),
		Loss:   func(ps []*tensorops.Tensor) float64 { return AttentionLoss(attentionOf(ps), x, y) },
		Grad:   func(g []*tensorops.Tensor) float64 { return AttentionLossGrad(m, attentionOf(g), x, y) },
		Hand:   func(g []*tensorops.Tensor) float64 { return AttentionHandGrad(m, attentionOf(g), x, y) },
	}
}
