package taylor

// Taylor mode on every function of package math, through the functions of
// the mathfuncs case: each is expanded from its first-order rule by the
// recurrence of its differential equation.

//gad:taylor mathSin github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Sin order=4
//gad:taylor mathCos github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Cos order=4
//gad:taylor mathTan github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Tan order=4
//gad:taylor mathAsin github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Asin order=4
//gad:taylor mathAcos github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Acos order=4
//gad:taylor mathAtan github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Atan order=4
//gad:taylor mathSinh github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Sinh order=4
//gad:taylor mathCosh github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Cosh order=4
//gad:taylor mathTanh github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Tanh order=4
//gad:taylor mathAsinh github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Asinh order=4
//gad:taylor mathAcosh github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Acosh order=4
//gad:taylor mathAtanh github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Atanh order=4
//gad:taylor mathExp github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Exp order=4
//gad:taylor mathExp2 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Exp2 order=4
//gad:taylor mathExpm1 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Expm1 order=4
//gad:taylor mathLog github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Log order=4
//gad:taylor mathLog2 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Log2 order=4
//gad:taylor mathLog10 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Log10 order=4
//gad:taylor mathLog1p github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Log1p order=4
//gad:taylor mathSqrt github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Sqrt order=4
//gad:taylor mathCbrt github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Cbrt order=4
//gad:taylor mathAbs github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Abs order=4
//gad:taylor mathErf github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Erf order=4
//gad:taylor mathErfc github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Erfc order=4
//gad:taylor mathErfinv github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Erfinv order=4
//gad:taylor mathErfcinv github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Erfcinv order=4
//gad:taylor mathJ0 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.J0 order=4
//gad:taylor mathJ1 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.J1 order=4
//gad:taylor mathY0 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Y0 order=4
//gad:taylor mathY1 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Y1 order=4
//gad:taylor mathJn github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Jn order=4
//gad:taylor mathYn github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Yn order=4
//gad:taylor mathFloor github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Floor order=4
//gad:taylor mathPowConst github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.PowConst order=4
//gad:taylor mathPowInt github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.PowInt order=4
//gad:taylor mathPowBase github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.PowBase order=4
//gad:taylor mathSoftplus github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Softplus order=4
//gad:taylor mathChain github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Chain order=4
//gad:taylor mathAtan2 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Atan2 order=3
//gad:taylor mathPow github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Pow order=3
//gad:taylor mathHypot github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Hypot order=3
//gad:taylor mathCopysign github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Copysign order=3
//gad:taylor mathFMA github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.FMA order=2
//gad:taylor mathNormalPDF github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.NormalPDF order=3
//gad:taylor mathSincos github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Sincos order=4
//gad:taylor mathModf github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Modf order=2
//gad:taylor mathFrexp github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Frexp order=2
//gad:taylor mathGamma github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Gamma order=4
//gad:taylor mathLgamma github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Lgamma order=4
//gad:taylor mathMin3 github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs.Min3 order=2
