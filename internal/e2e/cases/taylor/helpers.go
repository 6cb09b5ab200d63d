package taylor

// The second-order helpers on every function of one []float64 of the
// other end-to-end cases and the examples, checked against finite
// differences (gonum's fd.Hessian and fd.Laplacian).

//gad:hessian callsSumSqHessian github.com/gadgen/gadgen/internal/e2e/cases/calls.SumSq
//gad:hvp callsSumSqHVP github.com/gadgen/gadgen/internal/e2e/cases/calls.SumSq
//gad:laplacian callsSumSqLaplacian github.com/gadgen/gadgen/internal/e2e/cases/calls.SumSq
//gad:hessian callsPathLengthHessian github.com/gadgen/gadgen/internal/e2e/cases/calls.PathLength
//gad:hvp callsPathLengthHVP github.com/gadgen/gadgen/internal/e2e/cases/calls.PathLength
//gad:laplacian callsPathLengthLaplacian github.com/gadgen/gadgen/internal/e2e/cases/calls.PathLength
//gad:hessian gradsRosenbrockHessian github.com/gadgen/gadgen/internal/e2e/cases/grads.Rosenbrock
//gad:hvp gradsRosenbrockHVP github.com/gadgen/gadgen/internal/e2e/cases/grads.Rosenbrock
//gad:laplacian gradsRosenbrockLaplacian github.com/gadgen/gadgen/internal/e2e/cases/grads.Rosenbrock
//gad:hessian gradsSmoothHessian github.com/gadgen/gadgen/internal/e2e/cases/grads.Smooth
//gad:hvp gradsSmoothHVP github.com/gadgen/gadgen/internal/e2e/cases/grads.Smooth
//gad:laplacian gradsSmoothLaplacian github.com/gadgen/gadgen/internal/e2e/cases/grads.Smooth
//gad:hessian loopsSumSquaresHessian github.com/gadgen/gadgen/internal/e2e/cases/loops.SumSquares
//gad:hvp loopsSumSquaresHVP github.com/gadgen/gadgen/internal/e2e/cases/loops.SumSquares
//gad:laplacian loopsSumSquaresLaplacian github.com/gadgen/gadgen/internal/e2e/cases/loops.SumSquares
//gad:hessian loopsBackwardHessian github.com/gadgen/gadgen/internal/e2e/cases/loops.Backward
//gad:hvp loopsBackwardHVP github.com/gadgen/gadgen/internal/e2e/cases/loops.Backward
//gad:laplacian loopsBackwardLaplacian github.com/gadgen/gadgen/internal/e2e/cases/loops.Backward
//gad:hessian loopsProductHessian github.com/gadgen/gadgen/internal/e2e/cases/loops.Product
//gad:hvp loopsProductHVP github.com/gadgen/gadgen/internal/e2e/cases/loops.Product
//gad:laplacian loopsProductLaplacian github.com/gadgen/gadgen/internal/e2e/cases/loops.Product
//gad:hessian loopsWeightedHessian github.com/gadgen/gadgen/internal/e2e/cases/loops.Weighted
//gad:hvp loopsWeightedHVP github.com/gadgen/gadgen/internal/e2e/cases/loops.Weighted
//gad:laplacian loopsWeightedLaplacian github.com/gadgen/gadgen/internal/e2e/cases/loops.Weighted
//gad:hessian loopsSkipNegativeHessian github.com/gadgen/gadgen/internal/e2e/cases/loops.SkipNegative
//gad:hvp loopsSkipNegativeHVP github.com/gadgen/gadgen/internal/e2e/cases/loops.SkipNegative
//gad:laplacian loopsSkipNegativeLaplacian github.com/gadgen/gadgen/internal/e2e/cases/loops.SkipNegative
//gad:hessian memoryCumSquaresHessian github.com/gadgen/gadgen/internal/e2e/cases/memory.CumSquares
//gad:hvp memoryCumSquaresHVP github.com/gadgen/gadgen/internal/e2e/cases/memory.CumSquares
//gad:laplacian memoryCumSquaresLaplacian github.com/gadgen/gadgen/internal/e2e/cases/memory.CumSquares
//gad:hessian memorySquaresHessian github.com/gadgen/gadgen/internal/e2e/cases/memory.Squares
//gad:hvp memorySquaresHVP github.com/gadgen/gadgen/internal/e2e/cases/memory.Squares
//gad:laplacian memorySquaresLaplacian github.com/gadgen/gadgen/internal/e2e/cases/memory.Squares
//gad:hessian memoryTailHessian github.com/gadgen/gadgen/internal/e2e/cases/memory.Tail
//gad:hvp memoryTailHVP github.com/gadgen/gadgen/internal/e2e/cases/memory.Tail
//gad:laplacian memoryTailLaplacian github.com/gadgen/gadgen/internal/e2e/cases/memory.Tail
//gad:hessian panicsLogSumHessian github.com/gadgen/gadgen/internal/e2e/cases/panics.LogSum
//gad:hvp panicsLogSumHVP github.com/gadgen/gadgen/internal/e2e/cases/panics.LogSum
//gad:laplacian panicsLogSumLaplacian github.com/gadgen/gadgen/internal/e2e/cases/panics.LogSum
//gad:hessian exampleRosenbrockHessian github.com/gadgen/gadgen/examples/rosenbrock.Rosenbrock
//gad:hvp exampleRosenbrockHVP github.com/gadgen/gadgen/examples/rosenbrock.Rosenbrock
//gad:laplacian exampleRosenbrockLaplacian github.com/gadgen/gadgen/examples/rosenbrock.Rosenbrock
//gad:hessian fitLossHessian github.com/gadgen/gadgen/examples/fit.Data.Loss
//gad:hvp fitLossHVP github.com/gadgen/gadgen/examples/fit.Data.Loss
//gad:laplacian fitLossLaplacian github.com/gadgen/gadgen/examples/fit.Data.Loss
//gad:hessian springsEnergyHessian github.com/gadgen/gadgen/examples/springs.Chain.Energy
//gad:hvp springsEnergyHVP github.com/gadgen/gadgen/examples/springs.Chain.Energy
//gad:laplacian springsEnergyLaplacian github.com/gadgen/gadgen/examples/springs.Chain.Energy
//gad:hessian heatMisfitHessian github.com/gadgen/gadgen/examples/heat.Misfit wrt=u0
//gad:hvp heatMisfitHVP github.com/gadgen/gadgen/examples/heat.Misfit wrt=u0
//gad:laplacian heatMisfitLaplacian github.com/gadgen/gadgen/examples/heat.Misfit wrt=u0
//gad:taylor keplerEccentricAnomaly github.com/gadgen/gadgen/examples/kepler.EccentricAnomaly order=3
