// Package taylor implements Taylor mode, //gad:taylor order=K: the
// propagation of truncated Taylor polynomials (jets) through a function,
// and the second-order helpers built on it, //gad:hvp, //gad:hessian,
// //gad:hessdiag and //gad:laplacian.
//
// # Jets
//
// Taylor mode generalizes forward mode (package ssaad/forward): where
// forward mode gives every varied value one tangent, Taylor mode gives it
// K coefficients. If the varied inputs move along the curve
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
// as K shadows of the primal's shape, exactly as forward mode's tangent.
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
// where each partial gⱼ is a first-order rule of package templates,
// itself expanded as a series, lazily and only to order k−1 (so a partial
// that refers to the result, as exp's does, closes the recurrence).
// Partials that name another math function of the same arguments reuse
// it: sin and cos are expanded together, tanh from 1 − r², sqrt from
// 0.5/r, log from 1/x. The partials Taylor mode prefers to the
// first-order ones (see templates.TaylorPartials) are data too. This gives
// the standard recurrences of Griewank & Walther, Evaluating Derivatives,
// ch. 13, at O(K²) operations per elementary function.
//
// # Seed specialization
//
// With seed=line, the inputs move on a line, x(t) = x + x1·t: the
// generated function takes only x1, and the coefficients x2 … xK are the
// constant zero at generation time, so every term they contribute is
// folded away while the code is built.
//
// # Second-order helpers
//
// For a function with one varied []float64 parameter x and one float
// result, the helpers call its second-order, line-seeded jet
// F(x + t·u) = f + f1·t + f2·t² (f2 = ½uᵀHu): the Hessian diagonal and the
// Laplacian from u = eᵢ, off-diagonal entries by polarization
// Hᵢⱼ = f2(eᵢ+eⱼ) − f2(eᵢ) − f2(eⱼ), and Hessian-vector products from
// (Hv)ᵢ = (f2(v+eᵢ) − f2(v−eᵢ))/2.
package taylor
