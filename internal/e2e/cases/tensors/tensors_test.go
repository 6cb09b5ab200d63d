package tensors

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

const dt = tensorops.Float64

// along returns the central difference of f at x along v.
func along(f func(*tensorops.Tensor) float64, x, v *tensorops.Tensor, h float64) float64 {
	return (f(tensorops.Add(x, tensorops.Scale(v, h))) - f(tensorops.Add(x, tensorops.Scale(v, -h)))) / (2 * h)
}

func close(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

func newMLP(rng *rand.Rand) *MLP {
	return &MLP{W1: tensorops.RandN(rng, dt, 5, 4), B1: tensorops.RandN(rng, dt, 4),
		W2: tensorops.RandN(rng, dt, 4, 3), B2: tensorops.RandN(rng, dt, 3)}
}

// TestLoss checks the gradient of the perceptron against central
// differences along random directions of each parameter, and the JVP
// against the gradient.
func TestLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := newMLP(rng)
	x := tensorops.RandN(rng, dt, 6, 5)
	y := tensorops.OneHot([]int{0, 1, 2, 0, 1, 2}, 3, dt)
	var g MLP
	f := LossGrad(m, &g, x, y)
	if want := Loss(m, x, y); f != want {
		t.Errorf("LossGrad value %v, want %v", f, want)
	}
	fields := []struct {
		name string
		get  func(*MLP) **tensorops.Tensor
	}{
		{"W1", func(m *MLP) **tensorops.Tensor { return &m.W1 }},
		{"B1", func(m *MLP) **tensorops.Tensor { return &m.B1 }},
		{"W2", func(m *MLP) **tensorops.Tensor { return &m.W2 }},
		{"B2", func(m *MLP) **tensorops.Tensor { return &m.B2 }},
	}
	dm := &MLP{}
	var jvpWant float64
	for _, fl := range fields {
		p := *fl.get(m)
		v := tensorops.RandN(rng, dt, p.Shape()...)
		fd := along(func(w *tensorops.Tensor) float64 {
			m2 := *m
			*fl.get(&m2) = w
			return Loss(&m2, x, y)
		}, p, v, 1e-6)
		close(t, "gradient "+fl.name, tensorops.Dot(*fl.get(&g), v), fd, 1e-7)
		*fl.get(dm) = v
		jvpWant += tensorops.Dot(*fl.get(&g), v)
	}
	// The gradient accumulates into the buffers it is given.
	g2 := MLP{W1: g.W1.Clone(), B1: g.B1.Clone(), W2: g.W2.Clone(), B2: g.B2.Clone()}
	LossGrad(m, &g2, x, y)
	if d := tensorops.MaxAbsDiff(g2.W1, tensorops.Scale(g.W1, 2)); !(d <= 1e-15) {
		t.Errorf("accumulated gradient differs from twice the gradient by %v", d)
	}
	_, jv := LossJVP(m, dm, x, tensorops.ZerosLike(x), y, tensorops.ZerosLike(y))
	close(t, "JVP", jv, jvpWant, 1e-12)
}

// TestDeepLoss checks the gradient of the model held in slices, through
// the loop over its layers.
func TestDeepLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := []int{5, 4, 4, 3}
	d := &Deep{}
	for i := range len(sizes) - 1 {
		d.Ws = append(d.Ws, tensorops.RandN(rng, dt, sizes[i], sizes[i+1]))
		d.Bs = append(d.Bs, tensorops.RandN(rng, dt, sizes[i+1]))
	}
	x := tensorops.RandN(rng, dt, 6, 5)
	y := tensorops.RandN(rng, dt, 6, 3)
	g := &Deep{Ws: make([]*tensorops.Tensor, 3), Bs: make([]*tensorops.Tensor, 3)}
	DeepLossGrad(d, g, x, y)
	for i := range d.Ws {
		for _, w := range []struct {
			name string
			s    []*tensorops.Tensor
			g    *tensorops.Tensor
		}{{"W", d.Ws, g.Ws[i]}, {"B", d.Bs, g.Bs[i]}} {
			v := tensorops.RandN(rng, dt, w.s[i].Shape()...)
			fd := along(func(p *tensorops.Tensor) float64 {
				old := w.s[i]
				w.s[i] = p
				defer func() { w.s[i] = old }()
				return DeepLoss(d, x, y)
			}, w.s[i], v, 1e-6)
			close(t, w.name, tensorops.Dot(w.g, v), fd, 1e-7)
		}
	}
}

// TestQuad checks Taylor mode against differences of the function along
// a line, and the HVP against differences of the gradient.
func TestQuad(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := tensorops.Scale(tensorops.RandN(rng, dt, 3, 3), 0.4)
	v := tensorops.RandN(rng, dt, 3, 3)
	zero := tensorops.ZerosLike(x)
	f0, c1, c2, c3 := QuadTaylor(x, v, zero, zero)
	close(t, "value", f0, Quad(x), 0)
	line := func(s float64) float64 { return Quad(tensorops.Add(x, tensorops.Scale(v, s))) }
	const h = 1e-3
	close(t, "c1", c1, (line(h)-line(-h))/(2*h), 1e-6)
	close(t, "c2", c2, (line(h)-2*line(0)+line(-h))/(h*h)/2, 1e-5)
	close(t, "c3", c3, (line(2*h)-2*line(h)+2*line(-h)-line(-2*h))/(2*h*h*h)/6, 1e-4)
	_, hv := QuadHVP(x, v)
	const hg = 1e-6
	_, gp := QuadGrad(tensorops.Add(x, tensorops.Scale(v, hg)))
	_, gm := QuadGrad(tensorops.Add(x, tensorops.Scale(v, -hg)))
	fd := tensorops.Scale(tensorops.Sub(gp, gm), 1/(2*hg))
	if d := tensorops.MaxAbsDiff(hv, fd); !(d <= 1e-7) {
		t.Errorf("HVP differs from differences of the gradient by %v", d)
	}
	// The Laplacian is the trace of the Hessian: Σᵢ (H·eᵢ)ᵢ by HVPs.
	f, lap := QuadLaplacian(x)
	close(t, "Laplacian's value", f, Quad(x), 0)
	var trace float64
	for i := range tensorops.Size(x) {
		_, hv := QuadHVP(x, tensorops.Basis(x, i))
		trace += hv.Float64s()[i]
	}
	close(t, "Laplacian", lap, trace, 1e-12)
	// The diagonal, against the HVPs' too.
	f, d := QuadHessDiag(x)
	close(t, "diagonal's value", f, Quad(x), 0)
	if !d.SameShape(x) {
		t.Fatalf("diagonal of shape %v, want x's %v", d.Shape(), x.Shape())
	}
	for i := range tensorops.Size(x) {
		_, hv := QuadHVP(x, tensorops.Basis(x, i))
		close(t, "diagonal", d.Float64s()[i], hv.Float64s()[i], 1e-12)
	}
	// The Hessian [9, 9]: its rows the HVPs up to symmetrization, exactly
	// symmetric.
	f, hess := QuadHessian(x)
	close(t, "Hessian's value", f, Quad(x), 0)
	n := tensorops.Size(x)
	if got := hess.Shape(); len(got) != 2 || got[0] != n || got[1] != n {
		t.Fatalf("Hessian of shape %v, want [%d %d]", got, n, n)
	}
	for i := range n {
		_, hv := QuadHVP(x, tensorops.Basis(x, i))
		for j := range n {
			close(t, "Hessian", hess.At(i, j), hv.Float64s()[j], 1e-12)
			if hess.At(i, j) != hess.At(j, i) {
				t.Errorf("Hessian not symmetric at (%d, %d): %v, %v", i, j, hess.At(i, j), hess.At(j, i))
			}
		}
	}
	// Marked symmetric, so that the products that consume it use SYMM
	// (tensorops' TestSymmetricPaths checks the routine), with the
	// numbers of GEMM.
	if !hess.IsSymmetric() {
		t.Error("the Hessian is not marked symmetric: its products use GEMM")
	}
	b := tensorops.RandN(rng, tensorops.Float64, n, 4)
	if d := tensorops.MaxAbsDiff(tensorops.MatMul(hess, b), tensorops.MatMul(hess.Clone(), b)); !(d <= 1e-12) {
		t.Errorf("H·B by SYMM and by GEMM differ by %v", d)
	}
}

// TestShapes checks reshape, transpose and a sum along an axis.
func TestShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := tensorops.RandN(rng, dt, 3, 4)
	v := tensorops.RandN(rng, dt, 3, 4)
	_, g := ShapesGrad(x)
	fd := along(Shapes, x, v, 1e-6)
	close(t, "gradient", tensorops.Dot(g, v), fd, 1e-7)
	_, jv := ShapesJVP(x, v)
	close(t, "JVP", jv, fd, 1e-7)
}

// TestNetLoss checks the gradient through a helper that takes a layer by
// value (a struct of tensors: its adjoint is a struct of tensors), against
// central differences, and the JVP against the gradient.
func TestNetLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sizes := []int{4, 5, 3}
	n := &Net{}
	for i := range len(sizes) - 1 {
		n.Layers = append(n.Layers, Layer{W: tensorops.RandN(rng, dt, sizes[i], sizes[i+1]), B: tensorops.RandN(rng, dt, sizes[i+1])})
	}
	x := tensorops.RandN(rng, dt, 6, 4)
	y := tensorops.RandN(rng, dt, 6, 3)
	g := &Net{Layers: make([]Layer, len(n.Layers))}
	NetLossGrad(n, g, x, y)
	dn := &Net{}
	var want float64
	for i := range n.Layers {
		v := Layer{W: tensorops.RandN(rng, dt, n.Layers[i].W.Shape()...), B: tensorops.RandN(rng, dt, n.Layers[i].B.Shape()...)}
		dn.Layers = append(dn.Layers, v)
		fd := along(func(s *tensorops.Tensor) float64 {
			old := n.Layers[i]
			n.Layers[i] = Layer{W: tensorops.Add(old.W, tensorops.Scale(v.W, s.Item())), B: tensorops.Add(old.B, tensorops.Scale(v.B, s.Item()))}
			defer func() { n.Layers[i] = old }()
			return NetLoss(n, x, y)
		}, tensorops.Scalar(0), tensorops.Scalar(1), 1e-6)
		got := tensorops.Dot(g.Layers[i].W, v.W) + tensorops.Dot(g.Layers[i].B, v.B)
		close(t, "layer gradient", got, fd, 1e-7)
		want += got
	}
	_, jv := NetLossJVP(n, dn, x, y)
	close(t, "JVP", jv, want, 1e-10)
}
