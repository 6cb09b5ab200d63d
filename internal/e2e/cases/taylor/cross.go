package taylor

// Taylor mode on the functions of the other end-to-end cases, through the
// cross-package directive: loops (with data-dependent exits), branches,
// switches, several results, calls into another package, methods,
// pointers, slices written in place, slices of structs, recursion.

//gad:taylor loopsSumSquares github.com/gadgen/gadgen/internal/e2e/cases/loops.SumSquares order=3 seed=line
//gad:taylor loopsExpSeries github.com/gadgen/gadgen/internal/e2e/cases/loops.ExpSeries order=4
//gad:taylor loopsSqrt github.com/gadgen/gadgen/internal/e2e/cases/loops.Sqrt order=3
//gad:taylor loopsProduct github.com/gadgen/gadgen/internal/e2e/cases/loops.Product order=4 seed=line
//gad:taylor loopsHorner github.com/gadgen/gadgen/internal/e2e/cases/loops.Horner order=3 wrt=x
//gad:taylor loopsChebyshev github.com/gadgen/gadgen/internal/e2e/cases/loops.Chebyshev order=4
//gad:taylor controlPiecewise github.com/gadgen/gadgen/internal/e2e/cases/control.Piecewise order=3
//gad:taylor controlLegendre github.com/gadgen/gadgen/internal/e2e/cases/control.Legendre order=4
//gad:taylor controlStats github.com/gadgen/gadgen/internal/e2e/cases/control.Stats order=2 seed=line
//gad:taylor controlPolar github.com/gadgen/gadgen/internal/e2e/cases/control.Polar order=3
//gad:taylor controlClamp github.com/gadgen/gadgen/internal/e2e/cases/control.Clamp order=2
//gad:taylor callsCompose github.com/gadgen/gadgen/internal/e2e/cases/calls.Compose order=3
//gad:taylor callsPathLength github.com/gadgen/gadgen/internal/e2e/cases/calls.PathLength order=3 seed=line
//gad:taylor callsUnitTangent github.com/gadgen/gadgen/internal/e2e/cases/calls.UnitTangent order=2
//gad:taylor callsAngle github.com/gadgen/gadgen/internal/e2e/cases/calls.Angle order=2
//gad:taylor memoryStep github.com/gadgen/gadgen/internal/e2e/cases/memory.Step order=3
//gad:taylor memoryCentroid github.com/gadgen/gadgen/internal/e2e/cases/memory.Centroid order=2
//gad:taylor memoryCumSquares github.com/gadgen/gadgen/internal/e2e/cases/memory.CumSquares order=3 seed=line
//gad:taylor recursionHorner github.com/gadgen/gadgen/internal/e2e/cases/recursion.Horner order=3
//gad:taylor recursionContinuedFraction github.com/gadgen/gadgen/internal/e2e/cases/recursion.ContinuedFraction order=3
