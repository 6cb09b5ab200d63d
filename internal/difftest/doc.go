// Package difftest is gadgen's random-program differential tester: it
// generates smooth Go functions, asks gadgen for their derivatives in
// every mode, and checks the derivatives against each other and against
// exact directional derivatives computed by the complex step on a
// complex128 twin of each function. Failures are minimized into small
// programs kept in testdata.
//
// # What it generates
//
// [Generate] makes one program per seed and index, deterministically: an
// exported entry function (sometimes a method with a *Model receiver),
// the unexported helpers it calls, and the comment lines
// "//difftest:len N" (the length of every slice, and the value of int
// parameters) and "//difftest:modes …" (the modes to check), with
// "//difftest:wrt x" for the second-order modes, "//difftest:lanes L"
// for the jets with lanes (below) and "//difftest:checkpoint C" for the
// reverse modes' checkpoint=C (state-revolve). Its
// parameters are float64, []float64, int sizes, [N]float64 arrays and the
// structs Vec2 and Model (W []float64, B float64), by value and by
// pointer; its results one or two float64, or none when it writes a
// destination slice. Its bodies draw from every loop form (three-clause,
// downwards, condition-only, range over an int constant or variable, over
// slices with and without index or value, over arrays, loops nested from
// an outer index), data-dependent exits (break on a float test, early
// return in a loop, a fixed-point iteration that stops when its step is
// small), branches on active values, in-place updates of local copies,
// destination parameters and input slices, local structs, slices made
// per iteration, append, closures (capturing or not, called directly, or
// passed to a trapezoidal integrator), helpers of one or two floats, of
// slices, destination-first (addTo(dst, a, b)) and methods with pointer
// receivers, min and max, and the functions of package math on arguments
// inside their domains (Exp of bounded values, Log and Sqrt of 1+x², Pow
// with small integer exponents, …).
//
// The constructs of simulation and nesting code (genstate.go): a state
// struct of slices (type stateN struct{ q, v, hist []float64 }) made by
// a constructor newStateN(a, b) *stateN, a constructor wrapN(a, b)
// that stores the caller's slice a as the state's q (state-alias: the
// steps write the caller's memory), or a literal, stepped in place
// by a method of a pointer receiver in a time loop (an Euler step, or
// the leapfrog's kick-drift-kick: a method calling methods), with a
// method that replaces the field v by a slice it allocated
// (state-replace), a step that appends to the field hist
// (state-append), a step marked //gad:checkpoint (state-checkpoint: its
// calls are never inlined), a step that is a function of the state by
// value, writing through its slices (state-value), a time carried from
// step to step beside the state (state-carry), the time loop checkpointed by the reverse
// modes with 1 or 2 copies of the state (state-revolve: binomial
// checkpointing, //gad:grad checkpoint=C), and reads of the state afterwards (elements, the
// history, an energy helper of a *stateN); helpers that return a slice
// they allocated (helper-ret-slice: by make, or grown by append from
// nil); and calls of generated derivatives inside the differentiated
// function (nest-grad, nest-jvp): a helper potN(q []float64) float64
// with the directive //gad:grad or //gad:jvp, whose generated potNGrad
// or potNJVP the entry calls (or, nest-in-step, the step's kick calls
// for its force: GradBench's particle shape). The generator writes each
// such derivative out as a reference, a function marked
// "//difftest:reference potN" that the twin uses; the mode packages
// leave it out (gadgen writes it) and get it back where gadgen wrote no
// file, so that they build; the shrinker leaves it and its function
// alone. Their weights state-step, helper-ret-slice, nest-grad and
// nest-jvp are percentages of programs like the other specials' (25,
// 15, 15 and 10); -weights state-step=100,nest-grad=100 forces them.
//
// Each construct has a weight ([DefaultWeights]); the rarer ones
// ([Specials]: closures, append, allocation in loops, slices in structs,
// …) are enabled per program, so that a program that a mode refuses for
// one of them does not hide the others. A weight of 0 switches a construct
// off.
//
// An entry of one float64 result with a []float64 parameter also gets,
// in the percentage of programs that the weight "second" gives (100 by
// default), the second-order helpers //gad:hvp, //gad:hessdiag,
// //gad:laplacian and //gad:hessian with wrt= that parameter (one that
// the function does not write through where it has a choice). Every
// entry also gets, in the percentage of programs that the weight
// "lanes" gives (100 by default), its jets along L = 2 or 3 directions
// per call: //gad:taylor order=3 lanes=L, and with seed=line where it
// has the jet on a line (modes tlanes and llanes).
//
// # What it checks
//
// A batch of programs is written into a temporary module whose go.mod
// replaces gadgen by the repository: one package per mode (jvp, rev for
// grad and vjp, taylor with order=3, line with order=3 seed=line, tlanes
// and llanes for the same with lanes=L, second for the four
// second-order helpers), each holding every program with
// that mode's directives in the doc comments of its entries, and the
// package twin. gadgen runs once, in process (driver.Run), on the mode
// packages. The twin is the same source rewritten on its types
// (twin.go): complex128 for float64, package cmath for package math,
// comparisons on real parts. Then the generated files
// are type-checked in process and vetted and built by one go vet and one
// go build, and a harness (package harness, copied into the module)
// checks, at two random points per function:
//
//   - the value of every derivative against F's (results and the memory
//     its parameters reach);
//   - forward mode against Im F(x + i·h·v)/h with h = 1e-20, the exact
//     directional derivative;
//   - reverse mode by the dot-product test ⟨x̄, v⟩ = ⟨w, J·v⟩ against the
//     complex step and against forward mode, with the seeds of slices in
//     their shadows (so FGrad's accumulation is checked too);
//   - Taylor mode, with jets and on lines: the first coefficient against
//     the complex step and forward mode, the second and third against
//     extrapolated central differences of the complex-step derivative
//     along the curve, unless the twin's branches differ between the
//     points of the differences (a kink) or the differences do not
//     converge (a function that oscillates faster than they resolve);
//   - the jets with lanes: each lane's primal outputs against F's and
//     its coefficients (results and memory written through parameters)
//     against the jet without lanes along the lane's curve (lane 1 the
//     point's, the others drawn apart), within 1e-12 relatively, where
//     that jet passed; against the references of the jet otherwise;
//   - the second-order helpers, with respect to their parameter x, the
//     others fixed (harness/second.go), against f2(u) = ½uᵀ∇²F(x)u, the
//     second coefficient of F(x + t·u), from the line jet (or the jet)
//     if that mode passed at this function, from differences of the
//     complex-step derivative otherwise: vᵀ(Hv) = 2·f2(v) and uᵀ(Hv) =
//     f2(u+v) − f2(u) − f2(v) for the HVP and the Hessian, d[i] =
//     2·f2(eᵢ) for the diagonal, lap = Σ 2·f2(eᵢ) for the Laplacian; the
//     Hessian exactly symmetric, and H·v, its diagonal and its trace
//     equal to the HVP, the diagonal and the Laplacian where those
//     passed; every helper's value equal to F's, and the memory it
//     leaves behind, through every parameter, equal to what F leaves
//     (the outputs are NaN-filled first, so a helper must write them).
//
// Tolerances are relative, with a floor scaled by the size of the
// terms (and, for first derivatives, 1e-4 times the size of the outputs:
// inputs and directions are in [−1, 1)). A point is skipped where the
// outputs are not finite or beyond 1e12, where the twin meets values or
// derivatives beyond 1e6 (compared, chosen or passed to a function of
// package math: their cancellations leave digits of rounding noise, which
// each mode rounds its own way), where the derivative overflows
// or is 1e8 times larger than the outputs (rounding alone changes its
// digits), and where the twin compares two different values closer than
// 1e-10 relatively (rounding could make the program take the other
// branch): the summary counts the skips by reason.
//
// Every mode of every entry gets an [Outcome]: checked (Pass), refused
// (gadgen reported a positioned diagnostic; counted by the construct it
// names; a diagnostic at another directive of the same file refuses the
// file, and the modes without one of their own count as "(another
// directive of the file)"), skipped, Fail (a wrong number, a panic or a hang of generated
// code, an internal error of gadgen, generated code that does not compile
// or vet, a diagnostic without a position, no output and no diagnostic),
// or Tester (a problem of the tester itself, such as a twin that does not
// agree with its function). A refusal is not a failure: gadgen writes
// nothing for a file whose directives fail, and only that program's mode
// is lost. The summary also counts the HVPs and Hessians gadgen wrote by
// how their doc comments say they are computed: by forward mode over
// reverse mode, or by jets (and, for the HVP, why).
//
// # Shrinking
//
// [Shrink] minimizes a failing program: it tries every one-step mutation
// (delete a statement or a helper, unwrap an if or a loop, replace a
// float expression by an operand or 0.5, shrink an integer constant or
// //difftest:len, drop a parameter), keeps those that type-check, runs
// them many to a batch, and goes on from the smallest that fails the same
// way (same entry, mode and kind of failure). [WriteCase] writes the
// result, with the seed and the failure in its first comment.
//
// # Running
//
// go test runs a sample of programs of seed 1 (TestSample, in well under
// two minutes on two cores; every first-order and Taylor mode must be
// checked on at least 50 programs, each second-order one and each jet
// with lanes on 15, and nothing may fail) and the cases of testdata/regress
// (TestRegress: each must be checked and pass). The sample gives the
// second-order helpers to 30% of the entries that can have them (they
// double the time of gadgen and go vet on a program), the jets with
// lanes to 25% and a state stepped in place to 12% of the programs
// (reverse mode and seed=line refuse those today); long runs use the
// default weights.
// Constructs with bugs found and not fixed yet are switched off in the
// sample (knownBugWeights in difftest_test.go), or only for the modes
// they break (knownBugs); their minimized programs are in
// testdata/known, which go test -run TestKnown -difftest.known checks,
// reporting those that pass now.
//
// Long runs use the command difftest, which prints the summary table
// (programs, checks and the refusal rate per mode, refusals by construct
// and mode and by reason — the construct and gadgen's message, the
// generator's numbered names made generic — and mode, the
// outcomes of each construct of the generator, failures) and can
// minimize the failures into files:
//
//	go run ./internal/difftest/cmd/difftest -n 2000 -seed 7
//	go run ./internal/difftest/cmd/difftest -n 2000 -seed 7 -shrink -out internal/difftest/testdata/known
//	go run ./internal/difftest/cmd/difftest -n 500 -weights closure=100,integrate=0
//	go run ./internal/difftest/cmd/difftest -n 2000 -seed 7 -reversal joint
//
// -reversal joint or inline forces how reverse mode differentiates calls
// (gadgen's -reversal; Config.Reversal): every call kept and reversed
// jointly, or every call that can be inlined inlined, so that each
// strategy is checked against the other modes; by default gadgen chooses
// per call site.
//
// or go test ./internal/difftest -run TestSample -v -difftest.n=2000
// -difftest.seed=7 (-difftest.all to check the switched-off constructs
// too). Use nice on a shared machine.
//
// # Tensor programs
//
// [GenerateTensor] makes tensor programs of package tensorops: a
// function F of tensors (varied, fixed, labels) and a float64, or of a
// struct Model of tensors and slices of tensors (F's parameter by
// pointer or by value, or its receiver, pointer or value), built from
// tensorops' operations with the shapes tracked so each is well shaped
// (elementwise, broadcasting, products, shapes, reductions, the softmax
// family, lookups by ids, a 2-D value seen as an image through a
// convolution, dilated or not, and pooling), and from what users write
// around them, each weighed by
// [DefaultTensorWeights]: Concat with its arguments written out or
// spread from a slice literal, from a slice grown by append, or from the
// heads of a multi-head block collected in a loop (by append or by
// index; each head inline, a closure or a helper, through a weight
// shared by the heads or one of the model's per head); helpers returning
// tensors and slices of tensors; variadic helpers of the program's own,
// called with their arguments written out or spread; accumulators
// started from the nil tensor (var acc *tensorops.Tensor; acc =
// tensorops.Add(acc, t) in a loop, over the model's weights, or tested
// against nil); local structs of tensors passed to helpers by value and
// by pointer and to their methods (value and pointer receivers), slices
// of them ranged over (a local slice, or the model's field of type
// []Layer); a local struct holding a slice of tensors, passed and
// called the same ways; a state struct stepped in place by a method of a
// pointer receiver or a helper of a pointer, or replaced by a method of a
// value receiver, its sum field started nil; the model's methods and
// helpers, loops over its slices of weights. Each program gets
// //gad:jvp, //gad:grad, //gad:taylor order=3 and the same with
// lanes=2, and with one varied parameter (a tensor, or the model: a
// struct of tensors by pointer, by value or as the receiver) //gad:hvp,
// the same with lanes=2 and, for at most 16 varied elements,
// //gad:hessian, //gad:hessdiag and //gad:laplacian; "//difftest:param"
// and "//difftest:field"
// lines describe the inputs, Program.Features the constructs.
//
// [RunTensorBatch] checks them in float64 (package tharness: the JVP
// against extrapolated central differences; the JVP with some tangents
// nil, fields of the tangent struct and tangents of tensor parameters,
// against the same call with zero tensors there, and with every tangent
// nil (tangent structs of nil fields and nil slices too, which the JVP
// must grow) against 0 (mode jvpnil), the jet likewise (taylornil); the
// gradient by the dot-product test, into a shadow of nil fields and nil
// slices, which it must grow, and into a shadow holding tensors, which it
// must add to in place (gradacc); Taylor coefficient k against
// differences of k−1; the HVP against differences of the JVP and the
// gradient; each lane of the jets and HVPs with lanes against the jet or
// HVP along the lane alone; the Hessian exactly symmetric with its rows
// and H·v against the HVPs; the diagonal and the Laplacian against the
// HVPs along the unit directions of θ, the varied elements in order;
// every value equal to F's) and float32 against float64 (within 1e-4,
// plus what moving the inputs by an ulp changes). The gradient's
// adapter follows its generated signature: a struct's shadow taken by
// pointer (and accumulated) or returned. The harness runs with
// GADGEN_RELEASE_POISON=1: the temporaries generated code releases
// (tensorops.Release) are filled with NaN, so that a read after the
// release shows as a mismatch, and a buffer released twice panics.
//
// The summary gives each mode's refusal rate, the refusals by gadgen's
// diagnostic and mode, and each construct's outcomes by mode.
// [TensorSupported] lists, for every construct, the modes the README
// says gadgen differentiates it in: a refusal of a program whose every
// construct is supported in its mode is listed apart ("REFUSED though
// supported", Summary.Unexpected) and fails TestTensorSample like a
// wrong derivative. [ShrinkTensor] minimizes a failing or wrongly refused
// tensor program with the shrinker above (mutations for tensors: a call
// replaced by a tensor argument, a float result by the SumAll of one, a
// parameter made a constant local).
//
// difftest -tensors runs them (-shrink writes the minimized failures and
// refusals into testdata/known-tensor); go test runs a sample
// (TestTensorSample: 14 programs of seed 58, which use every construct
// of tensorCovered; no failure, no refusal of a supported construct,
// each mode checked), testdata/regress-tensor and, with -difftest.known,
// testdata/known-tensor (see its README):
//
//	go run ./internal/difftest/cmd/difftest -tensors -n 300 -seed 3
//	go run ./internal/difftest/cmd/difftest -tensors -seed 2 -first 13 -n 1 -shrink
//	go run ./internal/difftest/cmd/difftest -tensors -n 100 -weights concat-heads=10,model=100
//
// # Adding a regression case
//
// A case is one Go file of package p in testdata/regress, as the shrinker
// writes them (move a file from testdata/known once its bug is fixed), or
// written by hand: exported functions and methods are the entries (add
// "//difftest:modes jvp grad" to choose their modes; the default is jvp,
// grad for one float64 result or vjp otherwise, taylor and line),
// unexported ones are helpers, and the types Model and Vec2 are declared
// for it. The second-order modes (hvp, hessdiag, laplacian, hessian) are
// checked only when listed, with respect to the parameter that
// "//difftest:wrt x" names or the first []float64 one; line or taylor
// listed too give them their reference. The jets with lanes (tlanes,
// llanes) are checked only when listed, with "//difftest:lanes L" lanes
// (default 2), against taylor and line where those are listed too. A
// case that calls a generated derivative gives its helper the //gad:
// directive and declares that derivative written out, under gadgen's
// name for it, marked "//difftest:reference f" (as genstate.go writes
// them). The twin is derived from the source, so any function of the
// subset above works: floats, slices, arrays, structs, loops, branches,
// and the functions of package math that package cmath has.
package difftest
