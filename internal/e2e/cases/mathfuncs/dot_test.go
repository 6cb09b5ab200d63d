package mathfuncs

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Sin", F: Sin, JVP: SinJVP, Grad: SinGrad},
		{Name: "Cos", F: Cos, JVP: CosJVP, Grad: CosGrad},
		{Name: "Tan", F: Tan, JVP: TanJVP, Grad: TanGrad},
		{Name: "Asin", F: Asin, JVP: AsinJVP, Grad: AsinGrad},
		{Name: "Acos", F: Acos, JVP: AcosJVP, Grad: AcosGrad},
		{Name: "Atan", F: Atan, JVP: AtanJVP, Grad: AtanGrad},
		{Name: "Sinh", F: Sinh, JVP: SinhJVP, Grad: SinhGrad},
		{Name: "Cosh", F: Cosh, JVP: CoshJVP, Grad: CoshGrad},
		{Name: "Tanh", F: Tanh, JVP: TanhJVP, Grad: TanhGrad},
		{Name: "Asinh", F: Asinh, JVP: AsinhJVP, Grad: AsinhGrad},
		{Name: "Acosh", F: Acosh, JVP: AcoshJVP, Grad: AcoshGrad, Lo: 1.2, Hi: 3},
		{Name: "Atanh", F: Atanh, JVP: AtanhJVP, Grad: AtanhGrad},
		{Name: "Exp", F: Exp, JVP: ExpJVP, Grad: ExpGrad},
		{Name: "Exp2", F: Exp2, JVP: Exp2JVP, Grad: Exp2Grad},
		{Name: "Expm1", F: Expm1, JVP: Expm1JVP, Grad: Expm1Grad},
		{Name: "Log", F: Log, JVP: LogJVP, Grad: LogGrad, Lo: 0.2, Hi: 3},
		{Name: "Log2", F: Log2, JVP: Log2JVP, Grad: Log2Grad, Lo: 0.2, Hi: 3},
		{Name: "Log10", F: Log10, JVP: Log10JVP, Grad: Log10Grad, Lo: 0.2, Hi: 3},
		{Name: "Log1p", F: Log1p, JVP: Log1pJVP, Grad: Log1pGrad},
		{Name: "Sqrt", F: Sqrt, JVP: SqrtJVP, Grad: SqrtGrad, Lo: 0.2, Hi: 3},
		{Name: "Cbrt", F: Cbrt, JVP: CbrtJVP, Grad: CbrtGrad},
		{Name: "Abs", F: Abs, JVP: AbsJVP, Grad: AbsGrad},
		{Name: "Erf", F: Erf, JVP: ErfJVP, Grad: ErfGrad},
		{Name: "Erfc", F: Erfc, JVP: ErfcJVP, Grad: ErfcGrad},
		{Name: "Erfinv", F: Erfinv, JVP: ErfinvJVP, Grad: ErfinvGrad},
		{Name: "Erfcinv", F: Erfcinv, JVP: ErfcinvJVP, Grad: ErfcinvGrad, Lo: 0.2, Hi: 1.8},
		{Name: "Gamma", F: Gamma, JVP: GammaJVP, Grad: GammaGrad},
		{Name: "J0", F: J0, JVP: J0JVP, Grad: J0Grad},
		{Name: "J1", F: J1, JVP: J1JVP, Grad: J1Grad},
		{Name: "Y0", F: Y0, JVP: Y0JVP, Grad: Y0Grad, Lo: 0.5, Hi: 3},
		{Name: "Y1", F: Y1, JVP: Y1JVP, Grad: Y1Grad, Lo: 0.5, Hi: 3},
		{Name: "Floor", F: Floor, JVP: FloorJVP, Grad: FloorGrad},
		{Name: "Ceil", F: Ceil, JVP: CeilJVP, Grad: CeilGrad},
		{Name: "Trunc", F: Trunc, JVP: TruncJVP, Grad: TruncGrad},
		{Name: "Round", F: Round, JVP: RoundJVP, Grad: RoundGrad},
		{Name: "RoundToEven", F: RoundToEven, JVP: RoundToEvenJVP, Grad: RoundToEvenGrad},
		{Name: "Atan2", F: Atan2, JVP: Atan2JVP, Grad: Atan2Grad},
		{Name: "Pow", F: Pow, JVP: PowJVP, Grad: PowGrad, Lo: 0.2, Hi: 2},
		{Name: "Hypot", F: Hypot, JVP: HypotJVP, Grad: HypotGrad},
		{Name: "Max", F: Max, JVP: MaxJVP, Grad: MaxGrad},
		{Name: "Min", F: Min, JVP: MinJVP, Grad: MinGrad},
		{Name: "Mod", F: Mod, JVP: ModJVP, Grad: ModGrad},
		{Name: "Remainder", F: Remainder, JVP: RemainderJVP, Grad: RemainderGrad},
		{Name: "Dim", F: Dim, JVP: DimJVP, Grad: DimGrad},
		{Name: "Copysign", F: Copysign, JVP: CopysignJVP, Grad: CopysignGrad},
		{Name: "FMA", F: FMA, JVP: FMAJVP, Grad: FMAGrad},
		{Name: "PowConst", F: PowConst, JVP: PowConstJVP, Grad: PowConstGrad, Lo: 0.2, Hi: 2},
		{Name: "PowInt", F: PowInt, JVP: PowIntJVP, Grad: PowIntGrad},
		{Name: "PowBase", F: PowBase, JVP: PowBaseJVP, Grad: PowBaseGrad},
		{Name: "Jn", F: Jn, JVP: JnJVP, Grad: JnGrad},
		{Name: "Yn", F: Yn, JVP: YnJVP, Grad: YnGrad, Lo: 0.5, Hi: 3},
		{Name: "Ldexp", F: Ldexp, JVP: LdexpJVP, Grad: LdexpGrad},
		{Name: "Min3", F: Min3, JVP: Min3JVP, Grad: Min3Grad},
		{Name: "Max2", F: Max2, JVP: Max2JVP, Grad: Max2Grad},
		{Name: "Softplus", F: Softplus, JVP: SoftplusJVP, Grad: SoftplusGrad},
		{Name: "NormalPDF", F: NormalPDF, JVP: NormalPDFJVP, Grad: NormalPDFGrad},
		{Name: "Chain", F: Chain, JVP: ChainJVP, Grad: ChainGrad},
	})
}
