// unary.h: unary elementwise kernels without math functions (copies,
// sign changes, the scalar forms). Their formulas are those of tensorops'
// CPU kernels (unScalar in tensorops/kernels.go), NaN and signed zeros
// included: ReLU(−0) = 0, ReLU(NaN) = NaN; Sign(±0) = ±0, Sign(NaN) = NaN;
// Step(0) = 0, Step(NaN) = 0; Abs clears the sign bit. Go side:
// ops_unary.go.
#pragma once

#include "devmath.h"
#include "elementwise.h"

GAD_UNARY(copy, x)
GAD_UNARY(neg, -x)
GAD_UNARY(add_scalar, x + p)
GAD_UNARY(scale, x * p)
GAD_UNARY(affine, gad_mul(p, x) + q) // p·x rounded, then + q, as on the CPU (no fma)
GAD_UNARY(scalar_div, p / x)
GAD_UNARY(relu, x <= 0 ? (T)0 : x)
GAD_UNARY(abs, gad_fabs(x))
GAD_UNARY(square, x * x)
GAD_UNARY(sign, x > 0 ? (T)1 : (x < 0 ? (T)-1 : x))
GAD_UNARY(step, x > 0 ? (T)1 : (T)0)
