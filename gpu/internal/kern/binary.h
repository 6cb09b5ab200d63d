// binary.h: binary elementwise kernels with broadcasting. Formulas as
// binScalar in tensorops/kernels.go: Maximum and Minimum return y when y
// wins or is NaN, else x (so NaN in either gives NaN; of equal zeros, x);
// the fused derivatives TanhGrad y·(1−x²) (x² rounded, no fma, as on the
// CPU), SigmoidGrad y·x·(1−x), ReLUGrad y where x > 0, else 0, GELUGrad
// y·GELU′(x) and SiLUGrad y·SiLU′(x) (devmath.h). Go side: ops_binary.go.
#pragma once

#include "devmath.h"
#include "elementwise.h"

GAD_BINARY(add, x + y)
GAD_BINARY(sub, x - y)
GAD_BINARY(mul, x * y)
GAD_BINARY(div, x / y)
GAD_BINARY(pow, gad_pow(x, y))
GAD_BINARY(maximum, (y > x || y != y) ? y : x)
GAD_BINARY(minimum, (y < x || y != y) ? y : x)
GAD_BINARY(tanh_grad, y * (1 - gad_mul(x, x)))
GAD_BINARY(sigmoid_grad, y * x * (1 - x))
GAD_BINARY(relu_grad, x > 0 ? y : (T)0)
GAD_BINARY(gelu_grad, gad_gelu_mul(x, y))
GAD_BINARY(silu_grad, gad_silu_mul(x, y))
