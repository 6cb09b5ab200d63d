// unary.h: unary elementwise kernels without math functions (copies,
// sign changes, the scalar forms). Their formulas are those of tensorops'
// CPU kernels (unScalar in tensorops/kernels.go). Go side: ops_unary.go.
#pragma once

#include "elementwise.h"

GAD_UNARY(copy, x)
GAD_UNARY(neg, -x)
GAD_UNARY(add_scalar, x + p)
GAD_UNARY(scale, x * p)
GAD_UNARY(affine, p * x + q)
