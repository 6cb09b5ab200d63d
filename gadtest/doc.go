// Package gadtest tests derivatives: the ones gadgen generates, or any
// written by hand. It compares them with central finite differences
// (gonum.org/v1/gonum/diff/fd, Formula fd.Central) at reproducible random
// points, and a forward-mode derivative with a reverse-mode one by the
// dot-product test, and reports what disagrees on a *testing.T.
//
// # Checking a function of a vector
//
// Most functions map a slice to a number. For
//
//	//gad:jvp
//	func Rosenbrock(x []float64) float64
//
// gadgen generates RosenbrockJVP(x, dx []float64) (float64, float64); test
// it with
//
//	func TestRosenbrock(t *testing.T) {
//		gadtest.JVP(t, Rosenbrock, RosenbrockJVP, gadtest.Dim(3))
//	}
//
// JVP draws 8 points x in [-1, 1)³ and a direction v at each, and checks
// that RosenbrockJVP(x, v) returns Rosenbrock(x) and the central
// difference of Rosenbrock along v. The three shapes of a derivative of
// f: ℝⁿ → ℝ each have their check:
//
//	JVP        func(x, dx []float64) (f, df float64)  forward mode: df = ∇f(x)·dx
//	Grad       func(x, xBar []float64) float64        reverse mode: adds ∇f(x) to xBar
//	GonumGrad  func(grad, x []float64)                gonum/optimize: overwrites grad with ∇f(x)
//
// Grad and GonumGrad compare every ∂f/∂x[i] with the central difference
// along the i-th unit vector (4n evaluations of f per point). Grad also
// checks the shadow convention: called on a nonzero xBar, the gradient must
// add to it, not overwrite it. GonumGrad fills grad with NaN before the
// call, so that an element left unwritten shows.
//
// # Choosing the points
//
// The options after the functions say where to check:
//
//	gadtest.Dim(n)                 n inputs uniform in [-1, 1)
//	gadtest.Box(n, lo, hi)         n inputs uniform in [lo, hi)
//	gadtest.Around(center, r)      center_i + r·max(1, |center_i|)·U(-1, 1)
//	gadtest.Domain(func(r) x)      your own generator
//	gadtest.At(x1, x2, …)          exactly these points
//	gadtest.Points(n)              how many random points (default 8)
//	gadtest.Seed(s)                another reproducible draw (default 1)
//
// One of the first five is required. A point must lie away from kinks,
// branch boundaries and singularities of the function: a central
// difference straddling a kink measures the average of two one-sided
// derivatives, and the check fails there. Choose a Box inside the domain
// of the function (Box(n, 0.1, 3) for a logarithm).
//
// # Tolerances
//
// A derivative agrees with the central difference when, component by
// component,
//
//	|got − want| ≤ Rel·max(|got|, |want|) + Abs + noise
//
// where want is the central difference and noise estimates its round-off
// (a few ulps of f divided by the step). The central difference is taken
// at steps h and 2h and the two are extrapolated (Richardson), which
// leaves an error O(h⁴): the check holds where a derivative is zero and f
// curves strongly, as at a minimum, and is exact up to round-off on
// polynomials of degree 4 or less. Rel defaults to 1e-6 and Abs to 1e-9,
// which suit smooth, well-scaled functions in float64; change them with
// Rel, Abs or With (a whole Settings, for a table of cases), and the
// finite-difference step with Step. The value a derivative returns must
// agree with f(x) within PrimalRel (default 1e-12).
//
// # Functions with many outputs
//
// A function with several inputs or outputs is checked flattened: its
// varied inputs as one vector x, everything it produces as one vector (a
// Func), and its derivative in the same layout (a JVPFunc returns f(x)
// and J(x)·v; a VJPFunc adds Jᵀ(x)·w to xBar). For
// Softmax(dst, x []float64) and its SoftmaxJVP(dst, ddst, x, dx):
//
//	f := func(x []float64) []float64 {
//		dst := make([]float64, len(x))
//		Softmax(dst, x)
//		return dst
//	}
//	jvp := func(x, v []float64) (y, dy []float64) {
//		y, dy = make([]float64, len(x)), make([]float64, len(x))
//		SoftmaxJVP(y, dy, x, v)
//		return y, dy
//	}
//	gadtest.VecJVP(t, f, jvp, gadtest.Box(5, -3, 3))
//
// VecJVP and VecVJP check against central differences; DotTest checks a
// JVPFunc against a VJPFunc of the same function with the dot-product
// test ⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩, which needs no finite differences and so
// holds to round-off (Rel defaults to 1e-10 there). Scalar, ScalarJVP and
// ScalarGrad flatten the shapes of a function ℝⁿ → ℝ.
//
// # Checking functions of tensors
//
// The functions of tensors and of structs of tensors that gadgen
// differentiates (package tensorops) have no dimension to draw points
// from: their checks take the point, x, and draw random directions (3,
// or Points(n)) and seeds at it. For a loss of a model,
//
//	//gad:jvp wrt=m
//	//gad:grad wrt=m
//	func Loss(m *Model, x, y *tensorops.Tensor) float64
//
// gadgen generates LossJVP(m, dm *Model, x, y) (f, df float64) and
// LossGrad(m, mBar *Model, x, y) float64, which adds the gradient to the
// shadow mBar; test them with closures that fix the data:
//
//	f := func(m *Model) float64 { return Loss(m, x, y) }
//	jvp := func(m, dm *Model) (float64, float64) { return LossJVP(m, dm, x, y) }
//	grad := func(m, mBar *Model) float64 { return LossGrad(m, mBar, x, y) }
//	gadtest.TensorJVP(t, f, jvp, m)
//	gadtest.TensorGradTo(t, f, grad, m)
//	gadtest.TensorDot(t, jvp, gadtest.GradToVJP(grad), m)
//
// The point, of any type P, is laid out by reflection as a vector of its
// parts that hold floats: a *tensorops.Tensor, a float, a slice or array
// of floats, and the structs (exported fields or not), pointers, slices
// and arrays of them — a model with tensor fields, []*Tensor fields,
// nested layers and float parameters. What holds no floats (ints, names,
// functions) is shared, never varied; a nil tensor of the point is left
// nil. Directions have the shapes and dtypes of the point's tensors. The
// function returns a float or a tensor (Output).
//
//	TensorJVP     jvp(x, dx P) (y, dy R)         forward mode, against central differences
//	TensorGrad    grad(x P) (float64, P)         a gradient returned (a tensor, a struct by value)
//	TensorGradTo  grad(x, xBar P) float64        a gradient added to a shadow (a pointer, a slice)
//	TensorVJP     vjp(x P, rBar R) (y R, xBar P)  reverse mode with a seed, for a tensor result
//	TensorDot     a JVP against a VJP (GradVJP, GradToVJP adapt gradients), without differences
//
// The gradient checks compare ⟨∇f, v⟩ along a random direction in each
// part of the point (each tensor, float or float slice) with the central
// difference of f along it, and, at a point of at most 64 elements, each
// component; a failure names the part, W1 or Layers[2].B, and the
// component, W1[0 1]. A JVP that disagrees is checked again along each
// part alone. TensorGradTo also checks gadgen's shadow convention: from
// Shadow(x) — a copy of the point's structure with nil tensors and
// []*Tensor fields of the same lengths — each nil tensor must receive the
// gradient in a fresh tensor; called again on a shadow holding tensors of
// the right shapes, the gradient must be added to them, in place.
// Accumulate adds a returned gradient to a shadow in the same way, to
// adapt a derivative that returns some adjoints and accumulates others.
//
// Float32 tensors are checked in float32: the function is evaluated at
// float32 points, whose central differences lose half of float32's
// digits, so the step is longer (DefaultStep32, relative to the size of
// the point) and the tolerances looser (DefaultRel32, DefaultAbs32,
// DefaultDotRel32, DefaultPrimalRel32), with round-off counted in float32
// units; they catch errors of a few tenths of a percent. Settings and the
// options change them; Float32 asks for them when the point is float64
// but the function computes in float32, in the checks of functions of
// []float64 (Grad, JVP, DotTest, …) too.
//
// gadgen writes these tests itself with the directive option test=NAME,
// NAME a function returning example arguments (see gadgen's docs/testing.md).
//
// # Failures
//
// Each failing point is reported with tb.Errorf, naming the point, each
// component out of tolerance with what was got, what was wanted and the
// tolerance, and the point itself:
//
//	point 1: gadtest: ∇f(x)
//		∂f/∂x[1]: got 0.44785862364023149, want 0.44764993327489311 (|got-want| = 0.000209 > tol 4.49e-07)
//		at x = [0.44069358769270495 -0.4008118268796521 0.08340470957999235]
//
// When a JVP disagrees along v, the report also lists the partial
// derivatives ∂f[j]/∂x[i] found wrong along each unit vector, and when
// the dot-product test fails, the entries of J on which the JVP and the
// VJP disagree. A panic in f or in the derivative is reported, with its
// stack, at the point where it happened; the other points are still
// checked.
//
// The functions taking a TB are thin loops over CheckJVP, CheckVJP and
// CheckDot, which check at one point and return an *Error; use those to
// build other tests. Directional returns the central difference itself.
package gadtest
