// unary_math.h: unary elementwise kernels that call devmath.h (exp, log,
// tanh, ...). Go side: ops_unary_math.go.
#pragma once

#include "devmath.h"
#include "elementwise.h"

GAD_UNARY(exp, gad_exp(x))
