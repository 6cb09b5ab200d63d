// all.h is the one translation unit of the kernels: gen.go compiles it to
// PTX with clang (-x cuda), host.cc includes it for the host shim. A new
// op group file is included here, once.
#include "prelude.h"

#include "binary.h"
#include "conv.h"
#include "copy.h"
#include "gather.h"
#include "gemm.h"
#include "nn.h"
#include "pooling.h"
#include "products.h"
#include "reduce.h"
#include "unary.h"
#include "unary_math.h"
