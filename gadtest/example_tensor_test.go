package gadtest_test

import (
	"math/rand/v2"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/tensorops"
)

// Model is a linear model with its weights in a struct, the shape of
// gadgen's tensor gradients: its loss and derivatives are written by hand
// here, as gadgen would generate them with //gad:jvp wrt=m and //gad:grad
// wrt=m.
type Model struct {
	W *tensorops.Tensor   // [3 2]
	B []*tensorops.Tensor // one bias per layer: [2]
}

// Loss is Σ (x·W + Σ B)².
func Loss(m *Model, x *tensorops.Tensor) float64 {
	y := predict(m, x)
	return tensorops.SumAll(tensorops.Mul(y, y))
}

func predict(m *Model, x *tensorops.Tensor) *tensorops.Tensor {
	y := tensorops.MatMul(x, m.W)
	for _, b := range m.B {
		y = tensorops.Add(y, b)
	}
	return y
}

// LossJVP returns Loss and its derivative along dm: 2⟨y, x·dW + Σ dB⟩.
func LossJVP(m, dm *Model, x *tensorops.Tensor) (float64, float64) {
	dy := tensorops.MatMul(x, dm.W)
	for _, db := range dm.B {
		dy = tensorops.Add(dy, db)
	}
	return Loss(m, x), 2 * tensorops.Dot(predict(m, x), dy)
}

// LossGrad returns Loss and adds its gradient to mBar, gadgen's shadow
// convention: a nil tensor gets a fresh one, another is added to in place.
func LossGrad(m, mBar *Model, x *tensorops.Tensor) float64 {
	g := tensorops.Scale(predict(m, x), 2)
	add := func(dst **tensorops.Tensor, v *tensorops.Tensor) {
		if *dst == nil {
			*dst = v
			return
		}
		tensorops.AddInto(*dst, v)
	}
	add(&mBar.W, tensorops.MatMul(tensorops.Transpose(x, 1, 0), g))
	for i := range mBar.B {
		add(&mBar.B[i], tensorops.Sum(g, 0))
	}
	return Loss(m, x)
}

// exampleModel returns a model and its data.
func exampleModel() (*Model, *tensorops.Tensor) {
	r := rand.New(rand.NewPCG(1, 2))
	m := &Model{W: tensorops.RandN(r, tensorops.Float64, 3, 2),
		B: []*tensorops.Tensor{tensorops.RandN(r, tensorops.Float64, 2), tensorops.RandN(r, tensorops.Float64, 2)}}
	return m, tensorops.RandN(r, tensorops.Float64, 4, 3)
}

// In a test, check the derivatives of a loss of a model at the model,
// along random directions. Nothing is reported: they are right.
func ExampleTensorJVP() {
	m, x := exampleModel()

	f := func(m *Model) float64 { return Loss(m, x) }
	jvp := func(m, dm *Model) (float64, float64) { return LossJVP(m, dm, x) }
	grad := func(m, mBar *Model) float64 { return LossGrad(m, mBar, x) }
	gadtest.TensorJVP(t, f, jvp, m)
	gadtest.TensorGradTo(t, f, grad, m)
	gadtest.TensorDot(t, jvp, gadtest.GradToVJP(grad), m)
	// Output:
}

// A wrong gradient is reported with the part of the model it gets wrong:
// here the gradient of the second bias is forgotten.
func ExampleTensorGradTo() {
	m, x := exampleModel()

	f := func(m *Model) float64 { return Loss(m, x) }
	wrong := func(m, mBar *Model) float64 {
		b1 := mBar.B[1]
		y := LossGrad(m, mBar, x)
		mBar.B[1] = b1 // the bug
		return y
	}
	gadtest.TensorGradTo(t, f, wrong, m, gadtest.Points(1))
	// Output:
	// direction 0: gadtest: ∇f(x)
	// 	⟨∂f/∂B[1], v⟩ along a random v in B[1]: got …
	// 	∂f/∂B[1][0]: got …
	// 	∂f/∂B[1][1]: got …
	// 	at x = W [3 2] float64, B[0] [2] float64, B[1] [2] float64
}

// A function of one tensor with a tensor result (an activation, or a
// function with a //gad:rule jvp=… vjp=…) is checked with its JVP and VJP,
// here in float32, with float32's step and tolerances.
func ExampleTensorVJP() {
	x := tensorops.RandN(rand.New(rand.NewPCG(3, 4)), tensorops.Float32, 2, 3)
	f := tensorops.Tanh
	jvp := func(x, dx *tensorops.Tensor) (*tensorops.Tensor, *tensorops.Tensor) {
		y := f(x)
		return y, tensorops.TanhJVP(y, dx)
	}
	vjp := func(x, rBar *tensorops.Tensor) (*tensorops.Tensor, *tensorops.Tensor) {
		y := f(x)
		return y, tensorops.TanhJVP(y, rBar)
	}
	gadtest.TensorJVP(t, f, jvp, x)
	gadtest.TensorVJP(t, f, vjp, x)
	gadtest.TensorDot(t, jvp, vjp, x)
	// Output:
}
