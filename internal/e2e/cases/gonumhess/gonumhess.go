// Package gonumhess checks gadgen's second-order helpers as a new user
// would: the Hessians, Hessian-vector products, Hessian diagonals and
// Laplacians of the test functions of gonum.org/v1/gonum/optimize/functions,
// generated through the cross-package directive form (the receiver comes
// first), against gonum's hand-written Hess methods where there are some
// and against finite differences everywhere.
package gonumhess

import _ "gonum.org/v1/gonum/optimize/functions" // the targets

//gad:hessian BealeHessian gonum.org/v1/gonum/optimize/functions.Beale.Func
//gad:hvp BealeHVP gonum.org/v1/gonum/optimize/functions.Beale.Func
//gad:hessdiag BealeHessDiag gonum.org/v1/gonum/optimize/functions.Beale.Func
//gad:laplacian BealeLaplacian gonum.org/v1/gonum/optimize/functions.Beale.Func
//gad:hessian BrownBadlyScaledHessian gonum.org/v1/gonum/optimize/functions.BrownBadlyScaled.Func
//gad:hvp BrownBadlyScaledHVP gonum.org/v1/gonum/optimize/functions.BrownBadlyScaled.Func
//gad:hessdiag BrownBadlyScaledHessDiag gonum.org/v1/gonum/optimize/functions.BrownBadlyScaled.Func
//gad:laplacian BrownBadlyScaledLaplacian gonum.org/v1/gonum/optimize/functions.BrownBadlyScaled.Func
//gad:hessian BrownAndDennisHessian gonum.org/v1/gonum/optimize/functions.BrownAndDennis.Func
//gad:hvp BrownAndDennisHVP gonum.org/v1/gonum/optimize/functions.BrownAndDennis.Func
//gad:hessdiag BrownAndDennisHessDiag gonum.org/v1/gonum/optimize/functions.BrownAndDennis.Func
//gad:laplacian BrownAndDennisLaplacian gonum.org/v1/gonum/optimize/functions.BrownAndDennis.Func
//gad:hessian PowellBadlyScaledHessian gonum.org/v1/gonum/optimize/functions.PowellBadlyScaled.Func
//gad:hvp PowellBadlyScaledHVP gonum.org/v1/gonum/optimize/functions.PowellBadlyScaled.Func
//gad:hessdiag PowellBadlyScaledHessDiag gonum.org/v1/gonum/optimize/functions.PowellBadlyScaled.Func
//gad:laplacian PowellBadlyScaledLaplacian gonum.org/v1/gonum/optimize/functions.PowellBadlyScaled.Func
//gad:hessian WatsonHessian gonum.org/v1/gonum/optimize/functions.Watson.Func
//gad:hvp WatsonHVP gonum.org/v1/gonum/optimize/functions.Watson.Func
//gad:hessdiag WatsonHessDiag gonum.org/v1/gonum/optimize/functions.Watson.Func
//gad:laplacian WatsonLaplacian gonum.org/v1/gonum/optimize/functions.Watson.Func
//gad:hessian WoodHessian gonum.org/v1/gonum/optimize/functions.Wood.Func
//gad:hvp WoodHVP gonum.org/v1/gonum/optimize/functions.Wood.Func
//gad:hessdiag WoodHessDiag gonum.org/v1/gonum/optimize/functions.Wood.Func
//gad:laplacian WoodLaplacian gonum.org/v1/gonum/optimize/functions.Wood.Func
//gad:hessian BiggsEXP2Hessian gonum.org/v1/gonum/optimize/functions.BiggsEXP2.Func
//gad:hessian BiggsEXP3Hessian gonum.org/v1/gonum/optimize/functions.BiggsEXP3.Func
//gad:hessian BiggsEXP4Hessian gonum.org/v1/gonum/optimize/functions.BiggsEXP4.Func
//gad:hessian BiggsEXP5Hessian gonum.org/v1/gonum/optimize/functions.BiggsEXP5.Func
//gad:hessian BiggsEXP6Hessian gonum.org/v1/gonum/optimize/functions.BiggsEXP6.Func
//gad:hessian Box3DHessian gonum.org/v1/gonum/optimize/functions.Box3D.Func
//gad:hessian ExtendedPowellSingularHessian gonum.org/v1/gonum/optimize/functions.ExtendedPowellSingular.Func
//gad:hessian ExtendedRosenbrockHessian gonum.org/v1/gonum/optimize/functions.ExtendedRosenbrock.Func
//gad:hessian GaussianHessian gonum.org/v1/gonum/optimize/functions.Gaussian.Func
//gad:hessian HelicalValleyHessian gonum.org/v1/gonum/optimize/functions.HelicalValley.Func
//gad:hessian PenaltyIHessian gonum.org/v1/gonum/optimize/functions.PenaltyI.Func
//gad:hessian PenaltyIIHessian gonum.org/v1/gonum/optimize/functions.PenaltyII.Func
//gad:hessian SphereHessian gonum.org/v1/gonum/optimize/functions.Sphere.Func
//gad:hessian TrigonometricHessian gonum.org/v1/gonum/optimize/functions.Trigonometric.Func
//gad:hessian VariablyDimensionedHessian gonum.org/v1/gonum/optimize/functions.VariablyDimensioned.Func
//gad:hessian BraninHooHessian gonum.org/v1/gonum/optimize/functions.BraninHoo.Func
