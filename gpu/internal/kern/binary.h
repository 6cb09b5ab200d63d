// binary.h: binary elementwise kernels with broadcasting. Formulas as
// binScalar in tensorops/kernels.go. Go side: ops_binary.go.
#pragma once

#include "elementwise.h"

GAD_BINARY(add, x + y)
GAD_BINARY(sub, x - y)
GAD_BINARY(mul, x * y)
GAD_BINARY(div, x / y)
