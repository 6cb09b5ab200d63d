// Package second implements gadgen's second-order helpers, //gad:hvp,
// //gad:hessian, //gad:hessdiag and //gad:laplacian, for a function
// F(…, x, …) float64 with one varied parameter x: a []float64
// (second.go), a tensor, or a struct of tensors by value or by pointer —
// fields *tensorops.Tensor, []*tensorops.Tensor, nested structs of them
// by value or by pointer, and slices of such structs ([]Layer, []*Layer)
// (tensors.go, structs.go), whose elements in the order of the fields
// (a slice element by element) are the vector the Hessian is a matrix
// over. A helper is not a
// transformation of its own: it asks its environment (ssaad.Env) for
// derivatives the other modes generate, and calls them.
//
//   - Forward mode over reverse mode: the gradient of F (//gad:grad),
//     then the JVP of that gradient with respect to x and to the
//     gradient's buffer, FGradJVP(x, ẋ, dx, ḋx), which accumulates ∇F
//     into dx and ∇²F·ẋ into ḋx. Both are built at once
//     (ssaad.BuildEnv), so that a composition that does not apply (reverse
//     mode does not cover F, or forward mode cannot take the gradient) is
//     known before any code calls it. The gradient's own callees'
//     derivatives are differentiated in turn: the JVP of a gradient that
//     calls g's reverse-mode variant calls the JVP of that variant.
//   - Taylor mode: F's second-order, line-seeded jet, F(x + t·u) = f +
//     f1·t + f2·t² + O(t³) with f2 = ½uᵀ∇²F(x)u, or its collapsed form
//     that propagates 8 directions and the sum of their second
//     coefficients at once.
//
// For a tensor or a struct of tensors, the helpers return values of x's
// type (FHVP(x, v) (f, hv), FHessDiag(x) (f, d)), or the Hessian as a
// [n, n] tensor (FHessian(x) (f, h)); the HVP and the Hessian by forward
// mode over reverse mode (the gradient's JVP, its vector form for 8 rows
// of the Hessian per call), the diagonal and the Laplacian by jets along
// 8 unit directions per call. The gradient of a struct accumulates into
// a shadow in place (tensorops.Accumulate), which forward mode
// differentiates by templates.InPlace's rules; the helper passes fresh
// shadows, of x's shape, so that its caller sizes nothing. The generated
// code goes through a slice of structs in a loop over its elements, and
// through the 8 directions of a call in a loop over them.
//
// Which helper uses which, measured on a tanh MLP (n inputs, four hidden
// layers of 32 to 128, one thread; HVP: one forward-over-reverse product,
// a small multiple of a gradient; jet: one second-order line jet, 2–3
// function evaluations):
//
//   - //gad:hvp: one call of FGradJVP; 2n jets, (Hv)ᵢ = (f2(v+eᵢ) −
//     f2(v−eᵢ))/2, where forward over reverse does not apply (the doc
//     comment says why).
//   - //gad:hessian: n HVPs, row i = H·eᵢ, then each pair Hᵢⱼ, Hⱼᵢ set to
//     its mean, so the result is exactly symmetric. By n(n+1)/2 jets
//     (Hᵢᵢ = 2·f2(eᵢ), Hᵢⱼ = f2(eᵢ+eⱼ) − f2(eᵢ) − f2(eⱼ), prone to
//     cancellation) it took 1.2× as long at n = 8, 5.8× at n = 20 and 12×
//     at n = 50; jets remain where forward over reverse does not apply,
//     and where F writes through x (n calls would each start from the
//     last one's x).
//   - //gad:hessdiag: n jets, d[i] = 2·f2(eᵢ): about half the time of n
//     HVPs (0.56× at n = 8, 0.48× at n = 20, 0.43× at n = 50).
//   - //gad:laplacian: collapsed Taylor mode, ⌈n/8⌉ calls; bench/higher
//     measures it at 0.04× of n HVPs.
package second
