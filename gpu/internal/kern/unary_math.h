// unary_math.h: unary elementwise kernels that call devmath.h (exp, log,
// tanh, ...). Their formulas are those of tensorops' CPU kernels
// (unScalar and unaryVec in tensorops/kernels.go): the float kernels
// compute in double and round, as the CPU does. Go side:
// ops_unary_math.go.
#pragma once

#include "devmath.h"
#include "elementwise.h"

GAD_UNARY(exp, gad_exp(x))
GAD_UNARY(log, gad_log(x))
GAD_UNARY(tanh, gad_tanh(x))
GAD_UNARY(sigmoid, gad_sigmoid(x))
GAD_UNARY(sqrt, gad_sqrt(x))
GAD_UNARY(sin, gad_sin(x))
GAD_UNARY(cos, gad_cos(x))
GAD_UNARY(log1p, gad_log1p(x))
GAD_UNARY(expm1, gad_expm1(x))
GAD_UNARY(erf, gad_erf(x))
GAD_UNARY(gelu, gad_gelu(x))
GAD_UNARY(silu, gad_silu(x))
GAD_UNARY(softplus, gad_softplus(x))
// x^p; p = 1 and p = 2 as the CPU's contiguous kernel (x, x·x), which
// gad_pow also gives.
GAD_UNARY(pow_scalar, gad_pow(x, p))
