package gonumfuncs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/optimize/functions"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// problem is one function of package functions and its generated JVP.
type problem struct {
	name string
	f    func(x []float64) float64
	jvp  func(x, dx []float64) (float64, float64)
	// gadGrad is the gradient gadgen generated (//gad:grad): it
	// accumulates into dx.
	gadGrad func(x, dx []float64) float64
	// grad is the hand-written gradient, nil if there is none.
	grad func(grad, x []float64)
	// centers are the points around which the checks are made (within
	// radius, relative to max(1, |center_i|); zero means 0.05).
	centers [][]float64
	radius  float64
	// scale, if set, is the change of variables for badly scaled problems
	// (see fdcheck.Scaled).
	scale []float64
	s     *fdcheck.Settings
}

// gradTol is the relative tolerance of the JVP against dot(Grad(x), v),
// relative to Σ|Grad(x)_i·v_i|: both compute the same derivative, in
// different orders.
const gradTol = 1e-10

func minima(ms []functions.Minimum) [][]float64 {
	var xs [][]float64
	for _, m := range ms {
		xs = append(xs, m.X)
	}
	return xs
}

// braninHooGrad is BraninHoo's gradient, which gonum does not provide.
func braninHooGrad(grad, x []float64) {
	b, c, r, s, t := 5.1/(4*math.Pi*math.Pi), 5/math.Pi, 6.0, 10.0, 1/(8*math.Pi)
	term := x[1] - b*x[0]*x[0] + c*x[0] - r
	grad[0] = 2*term*(-2*b*x[0]+c) - s*(1-t)*math.Sin(x[0])
	grad[1] = 2 * term
}

func problems() []problem {
	pl := functions.Plassmann{L: 39, Beta: 0.01}
	yok := functions.YanaiOzawaKaneko{Beta1: 0.001, Beta2: 0.001}
	return []problem{
		{name: "Beale", f: functions.Beale{}.Func, grad: functions.Beale{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BealeJVP(functions.Beale{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BealeGrad(functions.Beale{}, x, dx) },
			centers: append(minima(functions.Beale{}.Minima()), []float64{1, 1}, []float64{1, 4})},
		{name: "BiggsEXP2", f: functions.BiggsEXP2{}.Func, grad: functions.BiggsEXP2{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BiggsEXP2JVP(functions.BiggsEXP2{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BiggsEXP2Grad(functions.BiggsEXP2{}, x, dx) },
			centers: append(minima(functions.BiggsEXP2{}.Minima()), []float64{1, 2})},
		{name: "BiggsEXP3", f: functions.BiggsEXP3{}.Func, grad: functions.BiggsEXP3{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BiggsEXP3JVP(functions.BiggsEXP3{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BiggsEXP3Grad(functions.BiggsEXP3{}, x, dx) },
			centers: append(minima(functions.BiggsEXP3{}.Minima()), []float64{1, 2, 1})},
		{name: "BiggsEXP4", f: functions.BiggsEXP4{}.Func, grad: functions.BiggsEXP4{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BiggsEXP4JVP(functions.BiggsEXP4{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BiggsEXP4Grad(functions.BiggsEXP4{}, x, dx) },
			centers: append(minima(functions.BiggsEXP4{}.Minima()), []float64{1, 2, 1, 1})},
		{name: "BiggsEXP5", f: functions.BiggsEXP5{}.Func, grad: functions.BiggsEXP5{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BiggsEXP5JVP(functions.BiggsEXP5{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BiggsEXP5Grad(functions.BiggsEXP5{}, x, dx) },
			centers: append(minima(functions.BiggsEXP5{}.Minima()), []float64{1, 2, 1, 1, 1})},
		{name: "BiggsEXP6", f: functions.BiggsEXP6{}.Func, grad: functions.BiggsEXP6{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BiggsEXP6JVP(functions.BiggsEXP6{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BiggsEXP6Grad(functions.BiggsEXP6{}, x, dx) },
			// The third minimum (x[1] = 1000, x[3] = −1000) is too badly
			// scaled for one finite-difference step; near the first the
			// derivative is ~1e-5, with truncation errors ~1e-9.
			centers: append(minima(functions.BiggsEXP6{}.Minima())[:2], []float64{1, 2, 1, 1, 1, 1}),
			s:       &fdcheck.Settings{Abs: 1e-8}},
		{name: "Box3D", f: functions.Box3D{}.Func, grad: functions.Box3D{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return Box3DJVP(functions.Box3D{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return Box3DGrad(functions.Box3D{}, x, dx) },
			centers: append(minima(functions.Box3D{}.Minima()), []float64{0, 10, 20})},
		{name: "BrownBadlyScaled", f: functions.BrownBadlyScaled{}.Func, grad: functions.BrownBadlyScaled{}.Grad,
			jvp: func(x, dx []float64) (float64, float64) {
				return BrownBadlyScaledJVP(functions.BrownBadlyScaled{}, x, dx)
			},
			gadGrad: func(x, dx []float64) float64 {
				return BrownBadlyScaledGrad(functions.BrownBadlyScaled{}, x, dx)
			},
			centers: minima(functions.BrownBadlyScaled{}.Minima()), scale: []float64{1e6, 2e-6}},
		{name: "BrownAndDennis", f: functions.BrownAndDennis{}.Func, grad: functions.BrownAndDennis{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return BrownAndDennisJVP(functions.BrownAndDennis{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BrownAndDennisGrad(functions.BrownAndDennis{}, x, dx) },
			centers: append(minima(functions.BrownAndDennis{}.Minima()), []float64{25, 5, -5, -1})},
		{name: "ExtendedPowellSingular", f: functions.ExtendedPowellSingular{}.Func, grad: functions.ExtendedPowellSingular{}.Grad,
			jvp: func(x, dx []float64) (float64, float64) {
				return ExtendedPowellSingularJVP(functions.ExtendedPowellSingular{}, x, dx)
			},
			gadGrad: func(x, dx []float64) float64 {
				return ExtendedPowellSingularGrad(functions.ExtendedPowellSingular{}, x, dx)
			},
			centers: append(minima(functions.ExtendedPowellSingular{}.Minima()), []float64{3, -1, 0, 3, 3, -1, 0, 3})},
		{name: "ExtendedRosenbrock", f: functions.ExtendedRosenbrock{}.Func, grad: functions.ExtendedRosenbrock{}.Grad,
			jvp: func(x, dx []float64) (float64, float64) {
				return ExtendedRosenbrockJVP(functions.ExtendedRosenbrock{}, x, dx)
			},
			gadGrad: func(x, dx []float64) float64 {
				return ExtendedRosenbrockGrad(functions.ExtendedRosenbrock{}, x, dx)
			},
			centers: append(minima(functions.ExtendedRosenbrock{}.Minima()), []float64{-1.2, 1, -1.2, 1})},
		{name: "Gaussian", f: functions.Gaussian{}.Func, grad: functions.Gaussian{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return GaussianJVP(functions.Gaussian{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return GaussianGrad(functions.Gaussian{}, x, dx) },
			centers: append(minima(functions.Gaussian{}.Minima()), []float64{0.4, 1, 0})},
		{name: "GulfResearchAndDevelopment", f: functions.GulfResearchAndDevelopment{}.Func, grad: functions.GulfResearchAndDevelopment{}.Grad,
			jvp: func(x, dx []float64) (float64, float64) {
				return GulfResearchAndDevelopmentJVP(functions.GulfResearchAndDevelopment{}, x, dx)
			},
			gadGrad: func(x, dx []float64) float64 {
				return GulfResearchAndDevelopmentGrad(functions.GulfResearchAndDevelopment{}, x, dx)
			},
			// |r| has a kink where x[1] = 25 + (−50·log 0.99)^(2/3) ≈ 25.63:
			// stay below it.
			centers: [][]float64{{50, 25, 1.5}, {5, 2.5, 0.15}}, radius: 0.01, scale: []float64{50, 25, 1.5}},
		{name: "HelicalValley", f: functions.HelicalValley{}.Func, grad: functions.HelicalValley{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return HelicalValleyJVP(functions.HelicalValley{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return HelicalValleyGrad(functions.HelicalValley{}, x, dx) },
			centers: append(minima(functions.HelicalValley{}.Minima()), []float64{-1, 0.5, 0})},
		{name: "PenaltyI", f: functions.PenaltyI{}.Func, grad: functions.PenaltyI{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return PenaltyIJVP(functions.PenaltyI{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return PenaltyIGrad(functions.PenaltyI{}, x, dx) },
			centers: append(minima(functions.PenaltyI{}.Minima()), []float64{1, 2, 3, 4})},
		{name: "PenaltyII", f: functions.PenaltyII{}.Func, grad: functions.PenaltyII{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return PenaltyIIJVP(functions.PenaltyII{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return PenaltyIIGrad(functions.PenaltyII{}, x, dx) },
			centers: append(minima(functions.PenaltyII{}.Minima()), []float64{0.5, 0.5, 0.5, 0.5})},
		{name: "PowellBadlyScaled", f: functions.PowellBadlyScaled{}.Func, grad: functions.PowellBadlyScaled{}.Grad,
			jvp: func(x, dx []float64) (float64, float64) {
				return PowellBadlyScaledJVP(functions.PowellBadlyScaled{}, x, dx)
			},
			gadGrad: func(x, dx []float64) float64 {
				return PowellBadlyScaledGrad(functions.PowellBadlyScaled{}, x, dx)
			},
			centers: minima(functions.PowellBadlyScaled{}.Minima()), scale: []float64{1e-5, 10}},
		{name: "Sphere", f: functions.Sphere{}.Func, grad: functions.Sphere{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return SphereJVP(functions.Sphere{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return SphereGrad(functions.Sphere{}, x, dx) },
			centers: [][]float64{{0.5, -1, 2}, {1, 2, 3, 4, 5}}},
		{name: "Trigonometric", f: functions.Trigonometric{}.Func, grad: functions.Trigonometric{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return TrigonometricJVP(functions.Trigonometric{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return TrigonometricGrad(functions.Trigonometric{}, x, dx) },
			centers: append(minima(functions.Trigonometric{}.Minima()), []float64{0.2, 0.2, 0.2, 0.2, 0.2})},
		{name: "VariablyDimensioned", f: functions.VariablyDimensioned{}.Func, grad: functions.VariablyDimensioned{}.Grad,
			jvp: func(x, dx []float64) (float64, float64) {
				return VariablyDimensionedJVP(functions.VariablyDimensioned{}, x, dx)
			},
			gadGrad: func(x, dx []float64) float64 {
				return VariablyDimensionedGrad(functions.VariablyDimensioned{}, x, dx)
			},
			centers: append(minima(functions.VariablyDimensioned{}.Minima()), []float64{0.75, 0.5, 0.25})},
		{name: "Watson", f: functions.Watson{}.Func, grad: functions.Watson{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return WatsonJVP(functions.Watson{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return WatsonGrad(functions.Watson{}, x, dx) },
			centers: append(minima(functions.Watson{}.Minima()), []float64{0, 0, 0, 0})},
		{name: "Wood", f: functions.Wood{}.Func, grad: functions.Wood{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return WoodJVP(functions.Wood{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return WoodGrad(functions.Wood{}, x, dx) },
			centers: append(minima(functions.Wood{}.Minima()), []float64{-3, -1, -3, -1})},
		{name: "ConcaveRight", f: functions.ConcaveRight{}.Func, grad: functions.ConcaveRight{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return ConcaveRightJVP(functions.ConcaveRight{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return ConcaveRightGrad(functions.ConcaveRight{}, x, dx) },
			centers: [][]float64{{math.Sqrt2}, {0.5}, {3}}},
		{name: "ConcaveLeft", f: functions.ConcaveLeft{}.Func, grad: functions.ConcaveLeft{}.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return ConcaveLeftJVP(functions.ConcaveLeft{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return ConcaveLeftGrad(functions.ConcaveLeft{}, x, dx) },
			centers: [][]float64{{1.596}, {0.5}, {3}}},
		// Plassmann's kinks are at 1 ± Beta = 0.99 and 1.01.
		{name: "Plassmann", f: pl.Func, grad: pl.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return PlassmannJVP(pl, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return PlassmannGrad(pl, x, dx) },
			centers: [][]float64{{0.5}, {1}, {1.5}}, radius: 0.005},
		{name: "YanaiOzawaKaneko", f: yok.Func, grad: yok.Grad,
			jvp:     func(x, dx []float64) (float64, float64) { return YanaiOzawaKanekoJVP(yok, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return YanaiOzawaKanekoGrad(yok, x, dx) },
			centers: [][]float64{{0.5}, {2}, {-1}}},
		{name: "BraninHoo", f: functions.BraninHoo{}.Func, grad: braninHooGrad,
			jvp:     func(x, dx []float64) (float64, float64) { return BraninHooJVP(functions.BraninHoo{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return BraninHooGrad(functions.BraninHoo{}, x, dx) },
			centers: append(minima(functions.BraninHoo{}.Minima()), []float64{0, 5})},
		{name: "Ackley", f: functions.Ackley{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return AckleyJVP(functions.Ackley{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return AckleyGrad(functions.Ackley{}, x, dx) },
			centers: [][]float64{{0.5, -0.3, 0.8}, {2, 2}}},
		{name: "Bukin6", f: functions.Bukin6{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return Bukin6JVP(functions.Bukin6{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return Bukin6Grad(functions.Bukin6{}, x, dx) },
			centers: [][]float64{{-8, 0.3}, {-12, 2}}},
		{name: "CamelThree", f: functions.CamelThree{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return CamelThreeJVP(functions.CamelThree{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return CamelThreeGrad(functions.CamelThree{}, x, dx) },
			centers: [][]float64{{0.5, -0.5}, {1.7, -0.87}}},
		{name: "CamelSix", f: functions.CamelSix{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return CamelSixJVP(functions.CamelSix{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return CamelSixGrad(functions.CamelSix{}, x, dx) },
			centers: [][]float64{{0.0898, -0.7126}, {-1, 1}}},
		{name: "CrossInTray", f: functions.CrossInTray{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return CrossInTrayJVP(functions.CrossInTray{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return CrossInTrayGrad(functions.CrossInTray{}, x, dx) },
			centers: [][]float64{{1.3491, 1.3491}, {-1.3491, 1.3491}}},
		{name: "DixonPrice", f: functions.DixonPrice{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return DixonPriceJVP(functions.DixonPrice{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return DixonPriceGrad(functions.DixonPrice{}, x, dx) },
			centers: [][]float64{{1, 0.7071, 0.5946}, {2, -1, 3, 0.5}}},
		{name: "DropWave", f: functions.DropWave{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return DropWaveJVP(functions.DropWave{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return DropWaveGrad(functions.DropWave{}, x, dx) },
			centers: [][]float64{{0.5, 0.3}, {-2, 1}}},
		{name: "Eggholder", f: functions.Eggholder{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return EggholderJVP(functions.Eggholder{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return EggholderGrad(functions.Eggholder{}, x, dx) },
			centers: [][]float64{{512, 404.2319}}, radius: 0.01},
		{name: "GramacyLee", f: functions.GramacyLee{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return GramacyLeeJVP(functions.GramacyLee{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return GramacyLeeGrad(functions.GramacyLee{}, x, dx) },
			centers: [][]float64{{0.55}, {1.5}, {2.4}}},
		{name: "Griewank", f: functions.Griewank{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return GriewankJVP(functions.Griewank{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return GriewankGrad(functions.Griewank{}, x, dx) },
			centers: [][]float64{{1, 2, 3}, {100, -50}}},
		{name: "HolderTable", f: functions.HolderTable{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return HolderTableJVP(functions.HolderTable{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return HolderTableGrad(functions.HolderTable{}, x, dx) },
			centers: [][]float64{{8.05502, 9.66459}}},
		{name: "Langermann2", f: functions.Langermann2{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return Langermann2JVP(functions.Langermann2{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return Langermann2Grad(functions.Langermann2{}, x, dx) },
			centers: [][]float64{{2.8, 4.6}, {7, 9}}},
		{name: "Levy", f: functions.Levy{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return LevyJVP(functions.Levy{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return LevyGrad(functions.Levy{}, x, dx) },
			centers: [][]float64{{1.5, -0.5, 2}, {1, 1}}},
		{name: "Levy13", f: functions.Levy13{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return Levy13JVP(functions.Levy13{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return Levy13Grad(functions.Levy13{}, x, dx) },
			centers: [][]float64{{1.2, 0.8}}},
		{name: "Rastrigin", f: functions.Rastrigin{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return RastriginJVP(functions.Rastrigin{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return RastriginGrad(functions.Rastrigin{}, x, dx) },
			centers: [][]float64{{0.3, -0.7, 1.2}}},
		{name: "Schaffer2", f: functions.Schaffer2{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return Schaffer2JVP(functions.Schaffer2{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return Schaffer2Grad(functions.Schaffer2{}, x, dx) },
			centers: [][]float64{{0.5, 1}, {1.5, -2}}},
		{name: "Schaffer4", f: functions.Schaffer4{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return Schaffer4JVP(functions.Schaffer4{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return Schaffer4Grad(functions.Schaffer4{}, x, dx) },
			centers: [][]float64{{0, 1.25313}}},
		{name: "Schwefel", f: functions.Schwefel{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return SchwefelJVP(functions.Schwefel{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return SchwefelGrad(functions.Schwefel{}, x, dx) },
			centers: [][]float64{{420.9687, 420.9687}, {-100, 50, 200}}},
		{name: "Shubert", f: functions.Shubert{}.Func,
			jvp:     func(x, dx []float64) (float64, float64) { return ShubertJVP(functions.Shubert{}, x, dx) },
			gadGrad: func(x, dx []float64) float64 { return ShubertGrad(functions.Shubert{}, x, dx) },
			centers: [][]float64{{-1.4, 0.5}, {0.3, -0.8}}},
	}
}

// TestJVP checks every generated JVP against finite differences, against
// the hand-written gradient where there is one, and its primal result
// against the function, at random points around each center.
func TestJVP(t *testing.T) {
	for _, p := range problems() {
		t.Run(p.name, func(t *testing.T) {
			radius := p.radius
			if radius == 0 {
				radius = 0.05
			}
			if len(p.centers) == 0 {
				t.Fatal("no centers: nothing to check around (gonum's Minima may be empty: give some)")
			}
			for k, c := range p.centers {
				f, jvp := fdcheck.ScalarField(p.f), fdcheck.ScalarFieldJVP(p.jvp)
				center, unscale := c, func(u []float64) []float64 { return u }
				if p.scale != nil {
					f, jvp = fdcheck.Scaled(f, jvp, p.scale)
					center = make([]float64, len(c))
					for i := range c {
						center[i] = c[i] / p.scale[i]
					}
					unscale = func(u []float64) []float64 {
						x := make([]float64, len(u))
						for i := range u {
							x[i] = p.scale[i] * u[i]
						}
						return x
					}
				}
				pts := fdcheck.Points(fdcheck.Seed(p.name)+uint64(k), 5, fdcheck.Around(center, radius))
				fdcheck.Test(t, f, jvp, pts, p.s)
				for _, pt := range pts {
					x, v := unscale(pt.X), unscale(pt.V)
					y, d := p.jvp(x, v)
					fdcheck.Close(t, "primal", []float64{y}, []float64{p.f(x)}, 1e-13)
					if p.grad != nil {
						checkGrad(t, p.grad, x, v, d)
					}
					checkGadGrad(t, p, x, v, d)
				}
			}
		})
	}
}

// checkGrad compares the tangent d with dot(grad(x), v).
func checkGrad(t *testing.T, grad func(grad, x []float64), x, v []float64, d float64) {
	t.Helper()
	g := make([]float64, len(x))
	grad(g, x)
	want, scale, norm := 0.0, 0.0, 0.0
	for i := range g {
		want += g[i] * v[i]
		scale += math.Abs(g[i] * v[i])
		norm += math.Abs(v[i])
	}
	// Relative to the terms of the dot product, with a floor at rounding
	// level where the gradient nearly vanishes (near a minimum, gonum's
	// hand-written gradients and ours cancel O(1) terms in different
	// orders).
	if tol := gradTol*scale + 1e-14*norm; !(math.Abs(d-want) <= tol) {
		t.Errorf("at x = %v along v = %v: tangent %.17g, dot(Grad(x), v) = %.17g (|diff| = %.3g > tol %.3g)",
			x, v, d, want, math.Abs(d-want), tol)
	}
}

// checkGadGrad checks gadgen's gradient at x: its primal result equals
// the function's, ⟨∇f, v⟩ equals the JVP's tangent d (the dot-product test
// between forward and reverse mode), and each component agrees with the
// hand-written gradient, if any, to about 1e-10.
func checkGadGrad(t *testing.T, p problem, x, v []float64, d float64) {
	t.Helper()
	g := make([]float64, len(x))
	if f := p.gadGrad(x, g); f != p.f(x) {
		t.Errorf("at x = %v: gradient's primal result %v, want %v", x, f, p.f(x))
	}
	dot, scale, norm := 0.0, 0.0, 0.0
	for i := range g {
		dot += g[i] * v[i]
		scale += math.Abs(g[i] * v[i])
		norm += math.Abs(v[i])
	}
	if !(math.Abs(dot-d) <= 1e-12*scale+1e-15*norm) {
		t.Errorf("at x = %v along v = %v: ⟨∇f, v⟩ = %.17g, JVP = %.17g", x, v, dot, d)
	}
	if p.grad == nil {
		return
	}
	h := make([]float64, len(x))
	p.grad(h, x)
	gmax := 0.0
	for i := range h {
		gmax = math.Max(gmax, math.Abs(h[i]))
	}
	for i := range h {
		if tol := gradTol*math.Max(math.Abs(h[i]), 1e-3*gmax) + 1e-14; !(math.Abs(g[i]-h[i]) <= tol) {
			t.Errorf("at x = %v: ∂f/∂x[%d] = %.17g, hand-written %.17g (tol %.3g)", x, i, g[i], h[i], tol)
		}
	}
}

// PlassmannParams varies the receiver's L and Beta too: x = [L, Beta, a].
func TestPlassmannParams(t *testing.T) {
	f := func(x []float64) []float64 {
		return []float64{functions.Plassmann{L: x[0], Beta: x[1]}.Func(x[2:])}
	}
	jvp := func(x, v []float64) []float64 {
		_, d := PlassmannParamsJVP(functions.Plassmann{L: x[0], Beta: x[1]}, functions.Plassmann{L: v[0], Beta: v[1]}, x[2:], v[2:])
		return []float64{d}
	}
	// Away from the kinks at a = 1 ± Beta. The step is relative to
	// |x|∞ = L, too large for sin(L·π·a/2) in a: take a smaller one.
	small := &fdcheck.Settings{Step: 1e-7}
	for k, c := range [][]float64{{39, 0.01, 0.5}, {39, 0.1, 1.05}, {20, 0.2, 1.5}} {
		gen := func(r *rand.Rand) fdcheck.Point {
			x := []float64{c[0] + 0.2*(2*r.Float64()-1), c[1] + 0.005*(2*r.Float64()-1), c[2] + 0.005*(2*r.Float64()-1)}
			return fdcheck.Point{X: x, V: fdcheck.Direction(r, 3)}
		}
		fdcheck.Test(t, f, jvp, fdcheck.Points(uint64(k), 5, gen), small)
	}
	// With the parameters fixed, it is PlassmannJVP.
	pl := functions.Plassmann{L: 39, Beta: 0.01}
	_, d1 := PlassmannParamsJVP(pl, functions.Plassmann{}, []float64{0.3}, []float64{1})
	_, d2 := PlassmannJVP(pl, []float64{0.3}, []float64{1})
	fdcheck.Close(t, "PlassmannParamsJVP with dL = dBeta = 0", []float64{d1}, []float64{d2}, 1e-15)
}

// TestPanics checks that the dimension checks are kept: the JVP panics
// with the function's own message.
func TestPanics(t *testing.T) {
	x3, x5 := []float64{1, 2, 3}, []float64{1, 2, 3, 4, 5}
	tests := []struct {
		name       string
		primal, ad func()
	}{
		{"Beale", func() { functions.Beale{}.Func(x3) }, func() { BealeJVP(functions.Beale{}, x3, x3) }},
		{"Box3D", func() { functions.Box3D{}.Func(x5) }, func() { Box3DJVP(functions.Box3D{}, x5, x5) }},
		{"Wood", func() { functions.Wood{}.Func(x3) }, func() { WoodJVP(functions.Wood{}, x3, x3) }},
		{"ExtendedPowellSingular", func() { functions.ExtendedPowellSingular{}.Func(x5) },
			func() { ExtendedPowellSingularJVP(functions.ExtendedPowellSingular{}, x5, x5) }},
		{"HelicalValley/x0=0", func() { functions.HelicalValley{}.Func([]float64{0, 1, 2}) },
			func() { HelicalValleyJVP(functions.HelicalValley{}, []float64{0, 1, 2}, x3) }},
		{"Bukin6", func() { functions.Bukin6{}.Func(x3) }, func() { Bukin6JVP(functions.Bukin6{}, x3, x3) }},
		{"CamelThree", func() { functions.CamelThree{}.Func(x3) }, func() { CamelThreeJVP(functions.CamelThree{}, x3, x3) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := recovered(tt.primal)
			if want == "" {
				t.Fatal("the function did not panic")
			}
			if got := recovered(tt.ad); got != want {
				t.Errorf("JVP panicked with %q, want %q", got, want)
			}
		})
	}
}

func recovered(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
