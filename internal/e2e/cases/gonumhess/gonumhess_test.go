package gonumhess

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/functions"

	"github.com/gadgen/gadgen/gadtest"
)

// handTol is the relative tolerance against gonum's hand-written
// Hessians, entry by entry: relative to max(|H_ij|, √|H_ii·H_jj|), the
// size the entry has next to its diagonal.
const handTol = 1e-8

type hand struct {
	name    string
	f       func(x []float64) float64
	hess    func(dst *mat.SymDense, x []float64)
	gHess   func(x, h []float64) float64
	gHVP    func(x, v, hv []float64) float64
	gDiag   func(x, d []float64) float64
	gLap    func(x []float64) (float64, float64)
	centers [][]float64
	radius  float64
}

func minima(ms []functions.Minimum) [][]float64 {
	var xs [][]float64
	for _, m := range ms {
		xs = append(xs, m.X)
	}
	return xs
}

// bealeHess is gonum's Beale.Hess with its bug fixed: gonum v0.17.0
// computes f1, f2 and f3 with x[1] where Func has x[0] (f1 := 1.5 -
// x[1]*t1), so its Hessian is wrong wherever x[0] ≠ x[1], the minimum
// (3, 0.5) included: ∂²f/∂y² there is 46.125 (the closed form below,
// finite differences and gadgen agree), not 108. TestBealeHessBug keeps
// the evidence.
func bealeHess(dst *mat.SymDense, x []float64) {
	t1 := 1 - x[1]
	t2 := 1 - x[1]*x[1]
	t3 := 1 - x[1]*x[1]*x[1]
	f1 := 1.5 - x[0]*t1
	f2 := 2.25 - x[0]*t2
	f3 := 2.625 - x[0]*t3
	h00 := 2 * (t1*t1 + t2*t2 + t3*t3)
	h01 := 2 * (f1 + x[1]*(2*f2+3*x[1]*f3) - x[0]*(t1+x[1]*(2*t2+3*x[1]*t3)))
	h11 := 2 * x[0] * (x[0] + 2*f2 + x[1]*(6*f3+x[0]*x[1]*(4+9*x[1]*x[1])))
	dst.SetSym(0, 0, h00)
	dst.SetSym(0, 1, h01)
	dst.SetSym(1, 1, h11)
}

// TestBealeHessBug shows that gonum's Beale.Hess disagrees with finite
// differences at the minimum, where the generated Hessian and the
// corrected one agree with them.
func TestBealeHessBug(t *testing.T) {
	var be functions.Beale
	x := []float64{3, 0.5}
	h := make([]float64, 4)
	BealeHessian(be, x, h)
	fdH := mat.NewSymDense(2, nil)
	fd.Hessian(fdH, be.Func, x, &fd.Settings{Formula: fd.Central, Step: 1e-4})
	gonumH := mat.NewSymDense(2, nil)
	be.Hess(gonumH, x)
	if !(math.Abs(h[3]-fdH.At(1, 1)) <= 1e-6*math.Abs(fdH.At(1, 1))) {
		t.Errorf("generated ∂²f/∂y² = %v, finite differences %v", h[3], fdH.At(1, 1))
	}
	if !(math.Abs(h[3]-46.125) <= 1e-12) {
		t.Errorf("generated ∂²f/∂y² = %v, want 46.125", h[3])
	}
	if gonumH.At(1, 1) == h[3] {
		t.Logf("gonum's Beale.Hess is fixed: ∂²f/∂y² = %v; use it in hands again", gonumH.At(1, 1))
	}
}

func hands() []hand {
	var (
		be  functions.Beale
		bbs functions.BrownBadlyScaled
		bd  functions.BrownAndDennis
		pbs functions.PowellBadlyScaled
		wa  functions.Watson
		wo  functions.Wood
	)
	return []hand{
		{"Beale", be.Func, bealeHess,
			func(x, h []float64) float64 { return BealeHessian(be, x, h) },
			func(x, v, hv []float64) float64 { return BealeHVP(be, x, v, hv) },
			func(x, d []float64) float64 { return BealeHessDiag(be, x, d) },
			func(x []float64) (float64, float64) { return BealeLaplacian(be, x) },
			append(minima(be.Minima()), []float64{1, 1}), 0.1},
		{"BrownBadlyScaled", bbs.Func, bbs.Hess,
			func(x, h []float64) float64 { return BrownBadlyScaledHessian(bbs, x, h) },
			func(x, v, hv []float64) float64 { return BrownBadlyScaledHVP(bbs, x, v, hv) },
			func(x, d []float64) float64 { return BrownBadlyScaledHessDiag(bbs, x, d) },
			func(x []float64) (float64, float64) { return BrownBadlyScaledLaplacian(bbs, x) },
			append(minima(bbs.Minima()), []float64{1, 1}), 0.1},
		{"BrownAndDennis", bd.Func, bd.Hess,
			func(x, h []float64) float64 { return BrownAndDennisHessian(bd, x, h) },
			func(x, v, hv []float64) float64 { return BrownAndDennisHVP(bd, x, v, hv) },
			func(x, d []float64) float64 { return BrownAndDennisHessDiag(bd, x, d) },
			func(x []float64) (float64, float64) { return BrownAndDennisLaplacian(bd, x) },
			append(minima(bd.Minima()), []float64{25, 5, -5, -1}), 0.1},
		{"PowellBadlyScaled", pbs.Func, pbs.Hess,
			func(x, h []float64) float64 { return PowellBadlyScaledHessian(pbs, x, h) },
			func(x, v, hv []float64) float64 { return PowellBadlyScaledHVP(pbs, x, v, hv) },
			func(x, d []float64) float64 { return PowellBadlyScaledHessDiag(pbs, x, d) },
			func(x []float64) (float64, float64) { return PowellBadlyScaledLaplacian(pbs, x) },
			append(minima(pbs.Minima()), []float64{0, 1}), 0.1},
		{"Watson", wa.Func, wa.Hess,
			func(x, h []float64) float64 { return WatsonHessian(wa, x, h) },
			func(x, v, hv []float64) float64 { return WatsonHVP(wa, x, v, hv) },
			func(x, d []float64) float64 { return WatsonHessDiag(wa, x, d) },
			func(x []float64) (float64, float64) { return WatsonLaplacian(wa, x) },
			append(minima(wa.Minima()), []float64{0, 0, 0, 0}), 0.1},
		{"Wood", wo.Func, wo.Hess,
			func(x, h []float64) float64 { return WoodHessian(wo, x, h) },
			func(x, v, hv []float64) float64 { return WoodHVP(wo, x, v, hv) },
			func(x, d []float64) float64 { return WoodHessDiag(wo, x, d) },
			func(x []float64) (float64, float64) { return WoodLaplacian(wo, x) },
			append(minima(wo.Minima()), []float64{-3, -1, -3, -1}), 0.1},
	}
}

// points returns the centers and, around each, three points drawn from
// gadtest.Around.
func points(centers [][]float64, radius float64) [][]float64 {
	r := gadtest.NewRand(1)
	var pts [][]float64
	for _, c := range centers {
		pts = append(pts, c)
		for range 3 {
			pts = append(pts, gadtest.Around(c, radius)(r))
		}
	}
	return pts
}

// TestHandWritten compares the generated Hessians, HVPs, diagonals and
// Laplacians with gonum's hand-written Hessians.
func TestHandWritten(t *testing.T) {
	for _, c := range hands() {
		t.Run(c.name, func(t *testing.T) {
			r := gadtest.NewRand(2)
			for _, x := range points(c.centers, c.radius) {
				n := len(x)
				want := mat.NewSymDense(n, nil)
				c.hess(want, x)
				scale := func(i, j int) float64 {
					return math.Max(math.Abs(want.At(i, j)), math.Sqrt(math.Abs(want.At(i, i)*want.At(j, j))))
				}
				h := make([]float64, n*n)
				if f := c.gHess(x, h); f != c.f(x) {
					t.Errorf("at %v: Hessian returns %v, want F(x) = %v", x, f, c.f(x))
				}
				for i := range n {
					for j := range n {
						if d := math.Abs(h[i*n+j] - want.At(i, j)); d > handTol*scale(i, j) || math.IsNaN(h[i*n+j]) {
							t.Errorf("at %v: H[%d][%d]: got %v, want %v", x, i, j, h[i*n+j], want.At(i, j))
						}
					}
				}
				// HVP along a random v, against H·v.
				v := gadtest.Direction(r, n)
				hv := make([]float64, n)
				c.gHVP(x, v, hv)
				for i := range n {
					w, s := 0.0, 0.0
					for j := range n {
						w += want.At(i, j) * v[j]
						s += scale(i, j) * math.Abs(v[j])
					}
					if math.Abs(hv[i]-w) > handTol*s || math.IsNaN(hv[i]) {
						t.Errorf("at %v along %v: (Hv)[%d]: got %v, want %v", x, v, i, hv[i], w)
					}
				}
				d := make([]float64, n)
				c.gDiag(x, d)
				tr, trScale := 0.0, 0.0
				for i := range n {
					if math.Abs(d[i]-want.At(i, i)) > handTol*math.Abs(want.At(i, i)) || math.IsNaN(d[i]) {
						t.Errorf("at %v: diagonal %d: got %v, want %v", x, i, d[i], want.At(i, i))
					}
					tr += want.At(i, i)
					trScale += math.Abs(want.At(i, i))
				}
				if _, lap := c.gLap(x); math.Abs(lap-tr) > handTol*trScale || math.IsNaN(lap) {
					t.Errorf("at %v: Laplacian: got %v, want %v", x, lap, tr)
				}
			}
		})
	}
}

// TestFiniteDifferences checks the Hessians of the functions without a
// hand-written one against gonum's fd.Hessian.
func TestFiniteDifferences(t *testing.T) {
	cases := []struct {
		name    string
		f       func(x []float64) float64
		hess    func(x, h []float64) float64
		centers [][]float64
	}{
		{"BiggsEXP2", functions.BiggsEXP2{}.Func, func(x, h []float64) float64 { return BiggsEXP2Hessian(functions.BiggsEXP2{}, x, h) }, [][]float64{{1, 2}}},
		{"BiggsEXP3", functions.BiggsEXP3{}.Func, func(x, h []float64) float64 { return BiggsEXP3Hessian(functions.BiggsEXP3{}, x, h) }, [][]float64{{1, 2, 1}}},
		{"BiggsEXP4", functions.BiggsEXP4{}.Func, func(x, h []float64) float64 { return BiggsEXP4Hessian(functions.BiggsEXP4{}, x, h) }, [][]float64{{1, 2, 1, 1}}},
		{"BiggsEXP5", functions.BiggsEXP5{}.Func, func(x, h []float64) float64 { return BiggsEXP5Hessian(functions.BiggsEXP5{}, x, h) }, [][]float64{{1, 2, 1, 1, 1}}},
		{"BiggsEXP6", functions.BiggsEXP6{}.Func, func(x, h []float64) float64 { return BiggsEXP6Hessian(functions.BiggsEXP6{}, x, h) }, [][]float64{{1, 2, 1, 1, 1, 1}}},
		{"Box3D", functions.Box3D{}.Func, func(x, h []float64) float64 { return Box3DHessian(functions.Box3D{}, x, h) }, [][]float64{{0, 10, 20}}},
		{"ExtendedPowellSingular", functions.ExtendedPowellSingular{}.Func, func(x, h []float64) float64 {
			return ExtendedPowellSingularHessian(functions.ExtendedPowellSingular{}, x, h)
		}, [][]float64{{3, -1, 0, 3, 3, -1, 0, 3}}},
		{"ExtendedRosenbrock", functions.ExtendedRosenbrock{}.Func, func(x, h []float64) float64 {
			return ExtendedRosenbrockHessian(functions.ExtendedRosenbrock{}, x, h)
		}, [][]float64{{-1.2, 1, -1.2, 1}, {1, 1, 1}}},
		{"Gaussian", functions.Gaussian{}.Func, func(x, h []float64) float64 { return GaussianHessian(functions.Gaussian{}, x, h) }, [][]float64{{0.4, 1, 0}}},
		{"HelicalValley", functions.HelicalValley{}.Func, func(x, h []float64) float64 { return HelicalValleyHessian(functions.HelicalValley{}, x, h) }, [][]float64{{-1, 0.5, 0.2}}},
		{"PenaltyI", functions.PenaltyI{}.Func, func(x, h []float64) float64 { return PenaltyIHessian(functions.PenaltyI{}, x, h) }, [][]float64{{1, 2, 3, 4}}},
		{"PenaltyII", functions.PenaltyII{}.Func, func(x, h []float64) float64 { return PenaltyIIHessian(functions.PenaltyII{}, x, h) }, [][]float64{{0.5, 0.5, 0.5, 0.5}}},
		{"Sphere", functions.Sphere{}.Func, func(x, h []float64) float64 { return SphereHessian(functions.Sphere{}, x, h) }, [][]float64{{0.5, -1, 2}}},
		{"Trigonometric", functions.Trigonometric{}.Func, func(x, h []float64) float64 { return TrigonometricHessian(functions.Trigonometric{}, x, h) }, [][]float64{{0.2, 0.2, 0.2, 0.2, 0.2}}},
		{"VariablyDimensioned", functions.VariablyDimensioned{}.Func, func(x, h []float64) float64 {
			return VariablyDimensionedHessian(functions.VariablyDimensioned{}, x, h)
		}, [][]float64{{0.75, 0.5, 0.25}}},
		{"BraninHoo", functions.BraninHoo{}.Func, func(x, h []float64) float64 { return BraninHooHessian(functions.BraninHoo{}, x, h) }, [][]float64{{0, 5}, {3, 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gadtest.Hessian(t, c.f, c.hess, gadtest.At(points(c.centers, 0.05)...))
		})
	}
}
