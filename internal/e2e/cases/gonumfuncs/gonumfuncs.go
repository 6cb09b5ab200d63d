// Package gonumfuncs is gadgen's "new user" corpus: the textbook test
// functions of gonum.org/v1/gonum/optimize/functions, differentiated
// through cross-package directives, as a user would who wants derivatives
// of code they do not own. They are methods on struct types with
// dimension checks that panic, nested loops, named results, switches,
// local arrays and helper methods.
//
// The test compares each generated JVP with the function's hand-written
// Grad method (dot(Grad(x), v)) where gonum has one, and with central
// finite differences, at random points near the functions' documented
// minima.
//
// Left out, for the integrator to decide (each should give a precise
// positioned error rather than a derivative):
//
//   - Linear: its Func calls floats.Sum, which is assembly on amd64
//     (internal/asm/f64.Sum has no Go body there); gadgen has no rule for
//     it. The same situation, in a form the diagnostics test can position,
//     is testdata/diag/nobody.
//   - MinimalSurface: its helper method reads unexported fields, which
//     code generated in another package cannot name; gadgen reports it
//     (testdata/diag/unexported).
//
// At risk (supported by the design, but exercising less common paths):
//
//   - Gaussian: calls the unexported helper method Gaussian.y, a switch
//     on an int that returns constants (an inactive call).
//   - Langermann2: local arrays [5]float64 and [5][2]float64 ranged over.
//   - Shubert: a float64 loop counter (for i := 1.0; i <= 5.0; i++).
//   - PlassmannParams: the cross-package form with wrt= naming the
//     receiver, so that the parameters L and Beta are varied too.
package gonumfuncs

//go:generate gadgen

// The package of the directives' targets must be loaded with this one.
import _ "gonum.org/v1/gonum/optimize/functions"

// More, Garbow and Hillstrom's test problems, with hand-written gradients.

//gad:jvp BealeJVP gonum.org/v1/gonum/optimize/functions.Beale.Func
//gad:grad BealeGrad gonum.org/v1/gonum/optimize/functions.Beale.Func test=2
//gad:jvp BiggsEXP2JVP gonum.org/v1/gonum/optimize/functions.BiggsEXP2.Func
//gad:grad BiggsEXP2Grad gonum.org/v1/gonum/optimize/functions.BiggsEXP2.Func
//gad:jvp BiggsEXP3JVP gonum.org/v1/gonum/optimize/functions.BiggsEXP3.Func
//gad:grad BiggsEXP3Grad gonum.org/v1/gonum/optimize/functions.BiggsEXP3.Func
//gad:jvp BiggsEXP4JVP gonum.org/v1/gonum/optimize/functions.BiggsEXP4.Func
//gad:grad BiggsEXP4Grad gonum.org/v1/gonum/optimize/functions.BiggsEXP4.Func
//gad:jvp BiggsEXP5JVP gonum.org/v1/gonum/optimize/functions.BiggsEXP5.Func
//gad:grad BiggsEXP5Grad gonum.org/v1/gonum/optimize/functions.BiggsEXP5.Func
//gad:jvp BiggsEXP6JVP gonum.org/v1/gonum/optimize/functions.BiggsEXP6.Func
//gad:grad BiggsEXP6Grad gonum.org/v1/gonum/optimize/functions.BiggsEXP6.Func
//gad:jvp Box3DJVP gonum.org/v1/gonum/optimize/functions.Box3D.Func
//gad:grad Box3DGrad gonum.org/v1/gonum/optimize/functions.Box3D.Func
//gad:jvp BrownBadlyScaledJVP gonum.org/v1/gonum/optimize/functions.BrownBadlyScaled.Func
//gad:grad BrownBadlyScaledGrad gonum.org/v1/gonum/optimize/functions.BrownBadlyScaled.Func
//gad:jvp BrownAndDennisJVP gonum.org/v1/gonum/optimize/functions.BrownAndDennis.Func
//gad:grad BrownAndDennisGrad gonum.org/v1/gonum/optimize/functions.BrownAndDennis.Func
//gad:jvp ExtendedPowellSingularJVP gonum.org/v1/gonum/optimize/functions.ExtendedPowellSingular.Func
//gad:grad ExtendedPowellSingularGrad gonum.org/v1/gonum/optimize/functions.ExtendedPowellSingular.Func
//gad:jvp ExtendedRosenbrockJVP gonum.org/v1/gonum/optimize/functions.ExtendedRosenbrock.Func
//gad:grad ExtendedRosenbrockGrad gonum.org/v1/gonum/optimize/functions.ExtendedRosenbrock.Func
//gad:jvp GaussianJVP gonum.org/v1/gonum/optimize/functions.Gaussian.Func
//gad:grad GaussianGrad gonum.org/v1/gonum/optimize/functions.Gaussian.Func
//gad:jvp GulfResearchAndDevelopmentJVP gonum.org/v1/gonum/optimize/functions.GulfResearchAndDevelopment.Func
//gad:grad GulfResearchAndDevelopmentGrad gonum.org/v1/gonum/optimize/functions.GulfResearchAndDevelopment.Func
//gad:jvp HelicalValleyJVP gonum.org/v1/gonum/optimize/functions.HelicalValley.Func
//gad:grad HelicalValleyGrad gonum.org/v1/gonum/optimize/functions.HelicalValley.Func
//gad:jvp PenaltyIJVP gonum.org/v1/gonum/optimize/functions.PenaltyI.Func
//gad:grad PenaltyIGrad gonum.org/v1/gonum/optimize/functions.PenaltyI.Func
//gad:jvp PenaltyIIJVP gonum.org/v1/gonum/optimize/functions.PenaltyII.Func
//gad:grad PenaltyIIGrad gonum.org/v1/gonum/optimize/functions.PenaltyII.Func
//gad:jvp PowellBadlyScaledJVP gonum.org/v1/gonum/optimize/functions.PowellBadlyScaled.Func
//gad:grad PowellBadlyScaledGrad gonum.org/v1/gonum/optimize/functions.PowellBadlyScaled.Func
//gad:jvp SphereJVP gonum.org/v1/gonum/optimize/functions.Sphere.Func
//gad:grad SphereGrad gonum.org/v1/gonum/optimize/functions.Sphere.Func
//gad:jvp TrigonometricJVP gonum.org/v1/gonum/optimize/functions.Trigonometric.Func
//gad:grad TrigonometricGrad gonum.org/v1/gonum/optimize/functions.Trigonometric.Func
//gad:jvp VariablyDimensionedJVP gonum.org/v1/gonum/optimize/functions.VariablyDimensioned.Func
//gad:grad VariablyDimensionedGrad gonum.org/v1/gonum/optimize/functions.VariablyDimensioned.Func
//gad:jvp WatsonJVP gonum.org/v1/gonum/optimize/functions.Watson.Func
//gad:grad WatsonGrad gonum.org/v1/gonum/optimize/functions.Watson.Func
//gad:jvp WoodJVP gonum.org/v1/gonum/optimize/functions.Wood.Func
//gad:grad WoodGrad gonum.org/v1/gonum/optimize/functions.Wood.Func

// Moré and Thuente's line-search test functions, with gradients; the
// parameters of Plassmann and YanaiOzawaKaneko are receiver fields.

//gad:jvp ConcaveRightJVP gonum.org/v1/gonum/optimize/functions.ConcaveRight.Func
//gad:grad ConcaveRightGrad gonum.org/v1/gonum/optimize/functions.ConcaveRight.Func
//gad:jvp ConcaveLeftJVP gonum.org/v1/gonum/optimize/functions.ConcaveLeft.Func
//gad:grad ConcaveLeftGrad gonum.org/v1/gonum/optimize/functions.ConcaveLeft.Func
//gad:jvp PlassmannJVP gonum.org/v1/gonum/optimize/functions.Plassmann.Func
//gad:grad PlassmannGrad gonum.org/v1/gonum/optimize/functions.Plassmann.Func
//gad:jvp PlassmannParamsJVP gonum.org/v1/gonum/optimize/functions.Plassmann.Func wrt=f,x
//gad:jvp YanaiOzawaKanekoJVP gonum.org/v1/gonum/optimize/functions.YanaiOzawaKaneko.Func
//gad:grad YanaiOzawaKanekoGrad gonum.org/v1/gonum/optimize/functions.YanaiOzawaKaneko.Func

// Functions of the Virtual Library of Simulation Experiments: gonum has no
// gradients for them, except BraninHoo's, which the test writes by hand.

//gad:jvp BraninHooJVP gonum.org/v1/gonum/optimize/functions.BraninHoo.Func
//gad:grad BraninHooGrad gonum.org/v1/gonum/optimize/functions.BraninHoo.Func
//gad:jvp AckleyJVP gonum.org/v1/gonum/optimize/functions.Ackley.Func
//gad:grad AckleyGrad gonum.org/v1/gonum/optimize/functions.Ackley.Func
//gad:jvp Bukin6JVP gonum.org/v1/gonum/optimize/functions.Bukin6.Func
//gad:grad Bukin6Grad gonum.org/v1/gonum/optimize/functions.Bukin6.Func
//gad:jvp CamelThreeJVP gonum.org/v1/gonum/optimize/functions.CamelThree.Func
//gad:grad CamelThreeGrad gonum.org/v1/gonum/optimize/functions.CamelThree.Func
//gad:jvp CamelSixJVP gonum.org/v1/gonum/optimize/functions.CamelSix.Func
//gad:grad CamelSixGrad gonum.org/v1/gonum/optimize/functions.CamelSix.Func
//gad:jvp CrossInTrayJVP gonum.org/v1/gonum/optimize/functions.CrossInTray.Func
//gad:grad CrossInTrayGrad gonum.org/v1/gonum/optimize/functions.CrossInTray.Func
//gad:jvp DixonPriceJVP gonum.org/v1/gonum/optimize/functions.DixonPrice.Func
//gad:grad DixonPriceGrad gonum.org/v1/gonum/optimize/functions.DixonPrice.Func
//gad:jvp DropWaveJVP gonum.org/v1/gonum/optimize/functions.DropWave.Func
//gad:grad DropWaveGrad gonum.org/v1/gonum/optimize/functions.DropWave.Func
//gad:jvp EggholderJVP gonum.org/v1/gonum/optimize/functions.Eggholder.Func
//gad:grad EggholderGrad gonum.org/v1/gonum/optimize/functions.Eggholder.Func
//gad:jvp GramacyLeeJVP gonum.org/v1/gonum/optimize/functions.GramacyLee.Func
//gad:grad GramacyLeeGrad gonum.org/v1/gonum/optimize/functions.GramacyLee.Func
//gad:jvp GriewankJVP gonum.org/v1/gonum/optimize/functions.Griewank.Func
//gad:grad GriewankGrad gonum.org/v1/gonum/optimize/functions.Griewank.Func
//gad:jvp HolderTableJVP gonum.org/v1/gonum/optimize/functions.HolderTable.Func
//gad:grad HolderTableGrad gonum.org/v1/gonum/optimize/functions.HolderTable.Func
//gad:jvp Langermann2JVP gonum.org/v1/gonum/optimize/functions.Langermann2.Func
//gad:grad Langermann2Grad gonum.org/v1/gonum/optimize/functions.Langermann2.Func
//gad:jvp LevyJVP gonum.org/v1/gonum/optimize/functions.Levy.Func
//gad:grad LevyGrad gonum.org/v1/gonum/optimize/functions.Levy.Func
//gad:jvp Levy13JVP gonum.org/v1/gonum/optimize/functions.Levy13.Func
//gad:grad Levy13Grad gonum.org/v1/gonum/optimize/functions.Levy13.Func
//gad:jvp RastriginJVP gonum.org/v1/gonum/optimize/functions.Rastrigin.Func
//gad:grad RastriginGrad gonum.org/v1/gonum/optimize/functions.Rastrigin.Func
//gad:jvp Schaffer2JVP gonum.org/v1/gonum/optimize/functions.Schaffer2.Func
//gad:grad Schaffer2Grad gonum.org/v1/gonum/optimize/functions.Schaffer2.Func
//gad:jvp Schaffer4JVP gonum.org/v1/gonum/optimize/functions.Schaffer4.Func
//gad:grad Schaffer4Grad gonum.org/v1/gonum/optimize/functions.Schaffer4.Func
//gad:jvp SchwefelJVP gonum.org/v1/gonum/optimize/functions.Schwefel.Func
//gad:grad SchwefelGrad gonum.org/v1/gonum/optimize/functions.Schwefel.Func
//gad:jvp ShubertJVP gonum.org/v1/gonum/optimize/functions.Shubert.Func
//gad:grad ShubertGrad gonum.org/v1/gonum/optimize/functions.Shubert.Func
