// nn.h: softmax, log-softmax, log-sum-exp, cross-entropy (to do: see the
// table of ops not yet on the device in package gpu's doc). Go side:
// ops_nn.go.
#pragma once

#include "devmath.h"
#include "geom.h"
