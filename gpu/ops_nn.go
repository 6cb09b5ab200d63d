package gpu

// nnKernels are the kernels of kern/nn.h (softmax, log-softmax,
// log-sum-exp, cross-entropy): none yet. tensorops reaches them through
// an optional interface of its own (to be added with them).
var nnKernels []kernel
