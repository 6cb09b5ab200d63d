package gpu

import _ "embed"

// ptxSM80 is every kernel compiled to PTX for sm_80 (ISA 7.0) by the
// pinned clang (go generate in internal/kern): the driver JIT-compiles it
// for the GPU at hand, any of compute capability 8.0 or later.
//
//go:embed internal/kern/gad_sm80.ptx
var ptxSM80 string
