// Package taylor implements the forward-propagating modes: forward mode,
// //gad:jvp, and Taylor mode, //gad:taylor order=K, the propagation of
// truncated Taylor polynomials (jets) through a function, which forward
// mode is at K = 1.
//
// # Forward mode
//
// For func F(p1 T1, …, pn Tn) (r1 R1, …), FJVP takes each parameter
// followed, when it is varied, by its tangent dp of the same type, and
// returns the primal results followed by one tangent per result whose type
// holds floats. Slices, arrays, pointers and structs carry tangents as
// shadows of the same shape: the tangent of x[i] is dx[i], and values the
// function writes through a pointer or into a slice have their tangents
// written (overwritten) into the corresponding shadow. A method of the
// package being generated stays a method; otherwise the receiver is the
// first parameter, as in the method expression T.Func.
//
// The CFG is kept as it is: every block of the primal becomes a block of
// the derivative, and each varied value (see ssaad.Varied) is followed in
// its block by the values that compute its coefficients (the classic
// "tangent linear" code of Griewank & Walther, Evaluating Derivatives,
// ch. 3, at K = 1). φ-nodes get coefficient φ-nodes; loads and stores
// through varied memory get loads and stores through the shadows; calls
// of package math use the rules of package templates, expanded by
// ssaad.Expander; calls of other functions with varied arguments call
// their derivatives (JVPs, or Taylor-mode functions of the same order),
// which the driver generates (ssaad.Env). Zero coefficients are never
// materialized: ssaad.Builder folds them while each expression is built
// (d(x*c) = dx*c), so the output needs no later clean-up of +0 and *1.
//
// # Jets
//
// Where forward mode gives every varied value one tangent, Taylor mode
// gives it K coefficients. If the varied inputs move along the curve
//
//	x(t) = x + x1·t + x2·t² + … + xK·t^K
//
// then every value v of the function becomes v(t) = v + v1·t + … + vK·t^K
// + O(t^(K+1)), and the generated function returns the primal results
// and, for each float result y, its coefficients y1 … yK. Coefficients are
// normalized Taylor coefficients, yk = y⁽ᵏ⁾(0)/k!: along a line
// x(t) = x + v·t, y1 is the directional derivative and 2·y2 = vᵀ∇²F(x)v.
//
// Shadows (slices, pointers, structs, arrays) carry their coefficients
// as K shadows of the primal's shape, as forward mode's tangent.
//
// # Rules
//
// Linear operations act on each coefficient. Products use the Cauchy
// product, quotients the division recurrence. Every other function of
// package math f(a, b, …) is expanded from its derivative by the
// recurrence of the differential equation c′ = Σ ∂f/∂aⱼ · aⱼ′:
//
//	c_k = (1/k) Σⱼ Σ_{i=1..k} i·aⱼ_i·gⱼ_{k−i},  gⱼ = ∂f/∂aⱼ(a(t), c(t))
//
// where each partial gⱼ is the first-order rule of package templates
// (the data: Taylor mode has no rule table of its own), itself expanded as
// a series, lazily and only to order k−1 (so a partial that refers to the
// result, as exp's does, closes the recurrence). Partials that name
// another math function of the same arguments reuse it: sin and cos are
// expanded together, tanh from 1 − r², sqrt from 0.5/r, log from 1/x.
// This gives the standard recurrences of Griewank & Walther, Evaluating
// Derivatives, ch. 13, at O(K²) operations per elementary function. The
// helpers that partials call (digamma, in Gamma's and Lgamma's rules)
// have rules too (ψ′ = ψ⁽¹⁾, ψ⁽ⁿ⁾′ = ψ⁽ⁿ⁺¹⁾), expanded the same way.
//
// # Seed specialization
//
// With seed=line, the inputs move on a line, x(t) = x + x1·t: the
// generated function takes only x1, and the coefficients x2 … xK are the
// constant zero at generation time, so every term they contribute is
// folded away while the code is built (ssaad.Builder folds zeros). A
// slice's zero coefficient shadows stay the constant zero as long as they
// are only read (reads fold to zero); they are materialized (make) where
// they are written or passed on. Callees whose varied arguments are all
// on a line get line-seeded jets. Coefficients of loop-carried values that
// stay zero are found after a build and folded in the next one.
//
// # Lanes
//
// The option lanes=L propagates L jets (in forward mode, L tangents:
// vector forward mode) that share the primal: each value keeps K
// coefficients per direction, slot (k−1)·L + l holding coefficient k of
// lane l, the first coefficients of all lanes first (what a line seed
// takes). Linear operations, memory, control flow and calls treat the
// slots like K coefficients; products, quotients and math calls expand
// each lane's jet on its own (perLane, laneMathCall), so that each lane
// is the jet along its direction alone. Operations linear in the
// coefficients then see L+1 operands at a time, which simplify's product
// merging turns into one GEMM per weight matrix. //gad:hessian of a
// tensor function takes its rows from the gradient's JVP with lanes, and
// //gad:hessdiag its diagonal from jets with lanes (package ssaad/second).
//
// # Collapsed Taylor mode
//
// The internal option collapsed=L (order 2) propagates L second-order
// jets at once along L directions: every value keeps its primal, one
// first coefficient per direction (a lane) and a single slot for the sum
// of the second coefficients, which enter the rules linearly (Dangel et
// al., NeurIPS 2025): for c = a·b, C2 = a0·B2 + A2·b0 + Σ_l a1_l·b1_l; for
// c = f(a), C2 = f′(a0)·A2 + Σ_l ½f″(a0)·a1_l², computed with the series
// of the general case (one jet per lane with zero second coefficients,
// one with zero first coefficients and the sums). Memory, control flow
// and calls treat the L+1 slots like K coefficients. //gad:laplacian
// calls it with 8 unit directions at a time (package ssaad/second).
//
// # Files
//
// taylor.go is the transformer, call.go its calls (the lazy series and
// the recurrence are ssaad.Expander's, in ssaad/series.go, shared with
// reverse mode), signature.go the generated signature and doc comment, phis.go
// clean-ups of the functions built. The second-order helpers built on
// this package's jets are package ssaad/second's.
package taylor
