// Package gpu is the CUDA backend of package tensorops: tensors moved to
// a GPU with x.To(gpu.Device(0)) keep their elements in device memory,
// and the tensorops ops on them run as CUDA kernels, so code written
// against tensorops (gadgen's generated derivatives included) runs
// unchanged on the GPU. Building gadgen or a program using this package
// needs neither the CUDA toolkit nor a GPU, nor cgo.
//
//	if err := gpu.Available(); err != nil { // errors.Is(err, gpu.ErrNoDriver) or gpu.ErrNoDevice
//		log.Print("CPU only: ", err)
//	}
//	x := tensorops.RandN(rng, tensorops.Float32, 256, 784).To(gpu.Device(0))
//	y := tensorops.Exp(tensorops.MatMul(x, w))   // on the GPU: w must be there too
//	fmt.Println(tensorops.SumAll(y), y.To(tensorops.CPU))
//
// Nothing happens at init. Device registers the backend with tensorops
// (tensorops.RegisterDevice; tensorops never imports gpu) and touches no
// driver; the driver (libcuda.so.1) is loaded at the first Available,
// Count or op on a device. An op on a device tensor with no kernel yet
// panics "tensorops: OP: not implemented on cuda:0"; mixing devices
// panics too. Results stay on the operands' device; Item, String and
// To(tensorops.CPU) copy to the host (and wait for the queued work).
//
// # Layers
//
// A tensorops op reaches the GPU through four layers, each in its own
// place:
//
//  1. tensorops (device.go) dispatches at its primitives: unary and
//     binary elementwise op codes (named "Exp", "Add", ...), copies and
//     dtype conversions, fills, reductions along an axis and of all
//     elements, and GEMM with BLAS's arguments. Every public op built on
//     them (MatMul and its gradients, Transpose, Slice, Concat, Mean,
//     SumLike, the nil conventions, ...) works on the device unchanged.
//     The interface a backend implements is tensorops.DeviceBackend; it
//     sees tensors as tensorops.DeviceArray (buffer, shape, strides,
//     offset), operands already broadcast to the result's shape.
//  2. This package (backend.go and ops_*.go) implements DeviceBackend:
//     it looks the op up in the tables of the op groups, collapses the
//     geometry (geom.go), packs the kernel's arguments and launches it.
//  3. A launch.Launcher (internal/launch) runs kernels by name: alloc,
//     free, host↔device copies, Launch(kernel, grid, block, shared bytes,
//     args as 8-byte slots), Sync. Two implement it: the CUDA driver
//     (driver.go) and the host shim (internal/kern, cgo, tests only).
//  4. The kernels (internal/kern/*.h): CUDA C, compiled to PTX by a pinned
//     clang ahead of time (committed, embedded with go:embed) and, for the
//     tests, to host C++.
//
// # The driver
//
// driver.go binds the driver API at run time with purego (no cgo, as
// tensorops binds OpenBLAS), on linux/amd64 and linux/arm64; elsewhere
// Available reports ErrNoDriver. The same holds with CGO_ENABLED=0: the
// package builds, and reports ErrNoDriver where there is no libcuda (and
// works where there is one). As with tensorops, a binary importing purego
// is dynamically linked even with CGO_ENABLED=0. Each device has its
// primary context, one non-blocking stream on which every copy and kernel
// is queued in order, and the PTX module loaded from the embedded PTX
// (the driver JIT-compiles sm_80 PTX for any GPU of compute capability
// 8.0 or later: A100, H100, H200). Driver calls hold a mutex and run on a
// locked OS thread with the context current; cuLaunchKernel goes through
// purego.SyscallN (about 130 ns), the others through purego.RegisterFunc.
// GEMM goes through cuBLAS when libcublas (.so.13, .12 or .11) loads,
// bound the same way (cublas.go: a handle per device on its stream, the
// row-major call mapped to cuBLAS's column-major one by swapping the
// operands), and through the tiled kernel of gemm.h otherwise;
// SetGEMM("tiled") or GADGEN_GPU_GEMM=tiled forces the kernel. That
// kernel is register-blocked: a block of 256 threads computes a 64×64
// (float64) or 128×128 (float32) tile of C from k-slices of 8 staged in
// double-buffered shared memory, each thread a 4×4 or 8×8 micro-tile in
// registers, with 16-byte vector loads where alignment allows (gemm.h's
// comment gives the design; on an H200 it reached 0.27 of cuBLAS in
// float64, whose DGEMM uses the FP64 tensor cores, and 0.68 in float32
// from n = 2048: bench/README.md).
//
// # Memory
//
// A device tensor's storage is a *buffer from a per-device pool
// (pool.go): blocks of power-of-two sizes from 256 B to 1 MiB, then
// multiples of 1 MiB, returned to the pool by a cleanup when the buffer
// becomes unreachable (runtime.AddCleanup). Reuse needs no
// synchronization because all work on a device is on one stream. On an
// allocation failure the pool frees its cache, runs the garbage
// collector and tries again. Device memory is invisible to the Go GC's
// pacing: a program that drops many large device tensors between
// collections can run out of device memory before the GC runs.
//
// # Kernels, ABI and conventions
//
// Kernel sources are .h files in internal/kern (never .cu, and never in
// another directory: Go's build cache hashes a cgo package's .h files
// but not .cu files, so a kernel edited in a .cu file would leave the
// host shim stale and the tests green). all.h includes every group file
// and is the single translation unit for clang and for the host.
// prelude.h makes the source compile for clang -x cuda without CUDA
// headers, for nvcc, and as host C++; what kernels may use is listed
// there (no warp intrinsics, no libdevice: device math such as gad_exp is
// written in devmath.h with fma, rint and bit casts, and tested against
// Go's math through the host shim).
//
// ABI of an entry:
//   - extern "C" __global__, named gad_<op>_<dtype> (gad_exp_f64,
//     gad_exp_f32; conversions gad_convert_<to>_<from>), followed by
//     GAD_KERNEL(name), which registers it with the host shim;
//   - parameters: pointers T* (PTX .u64), integers long long (.u64, never
//     int), scalars of the element type T (.f64 or .f32), and the
//     elementwise geometry struct gad_geom by value (.b8[272]: n, nd,
//     shape[8], strides[3][8], all long long; launch.Geom mirrors it);
//   - pointers already include the view's offset; strides are in
//     elements, 0 along broadcast dimensions; Go merges dimensions
//     (geom.go), so a contiguous operation has nd = 1 and unit strides;
//   - elementwise kernels are grid-stride loops (any grid and block);
//     reductions use blockDim.x (a power of two) doubles of dynamic shared
//     memory; GEMM uses blocks of 256 threads. Kernels must be correct for any
//     launch configuration their Go launcher may choose: the host shim
//     has at most 256 threads per block and 2 "SMs".
//
// On the Go side every entry is declared, with its parameter kinds, in
// the file of its op group (ops_unary.go: elemUnary("gad_exp") declares
// gad_exp_f64 and gad_exp_f32 with (gad_geom, T*, T*, T, T)). Launches go
// through devState.launch, which checks the packed arguments against the
// declaration; TestPTXSignatures checks every declaration against the
// embedded PTX's .visible .entry parameter lists, both ways; and
// TestHostKernels checks that the host shim has exactly the PTX's
// kernels.
//
// # The host shim and the tests
//
// With cgo, internal/kern compiles all.h as host C++ (g++ -O2) with
// hostshim.h: each CUDA thread of a block is a fiber on the calling OS
// thread (a 15-instruction context switch on linux/amd64, ucontext
// elsewhere); blocks run one after the other; __syncthreads switches to
// the block's next fiber, __shared__ is static, atomics are plain adds; a
// barrier that only some threads of a block reach fails the launch. The
// tests install it as device 0 (useLaunchers) and run tensorops'
// conformance suite (float64 and float32, odd shapes, broadcasting,
// strided inputs, sizes that are multiples of no block size) through
// tensorops → this package → launcher → kernels: the same Go code as on
// a GPU, only the driver differs. The suite takes about 8 s here on two
// cores. TestConformanceDevice runs it on GPU 0 and skips without one.
// Without cgo the host-shim tests are not built; the others run.
//
// The ops whose tests are still skipped on the device are the table
// notOnDevice in todo_test.go: that table is the to-do list. Every
// elementwise op code has its kernel; devmath.h's functions are within 1
// ulp of Go's math or of a 256-bit reference (2 for Sigmoid;
// devmath_host_test.go states each). Fuse and FuseInto run on a device as
// their separate operations, one kernel launch per operation, FuseInto
// writing the last into dst (TestHostFuse compares them with the CPU);
// compiling an expression into one fused kernel is a later optimization.
// Beyond the suite's names, these have no device path of their own yet:
// SYMM (a matrix marked symmetric multiplies through GEMM on the device)
// and SYRK (Gram is a GEMM and a mirror).
//
// # Ops with a device path of their own
//
// Ops that are not built from the primitives reach the device through
// optional interfaces that tensorops declares next to them and
// type-asserts on the registered backend (devExt in tensorops/nn.go;
// "not implemented" when the backend lacks one): deviceSoftmax (Softmax,
// LogSoftmax, LogSumExp) and deviceCrossEntropy in nn.go, deviceArgMax
// (ArgMax, MaxGrad, MaxJVP, and MaxAllGrad and MaxAllJVP through them) in
// reduce.go, deviceDot in matmul.go, deviceMirror (Gram) in symmetric.go,
// deviceConv2D (im2col and col2im, with dilation; Conv2D, Conv2DDilated
// and their adjoints multiply by GEMM) in conv.go, devicePool2D (MaxPool2D,
// AvgPool2D and their helpers) in pool.go, deviceGather (Gather, Embedding
// and GatherGrad's scatter-add) in gather.go. Their kernels are in nn.h,
// reduce.h, products.h, conv.h, pooling.h and gather.h (Go: ops_nn.go,
// ops_reduce_argmax.go, ops_products.go, ops_nn_conv.go, ops_nn_pool.go,
// ops_gather.go). The adjoints that add into shared elements (the
// max-pooling adjoint, the scatter-add) are gathers, not atomics: each
// thread owns an output element and adds its terms in the CPU's order
// (the scatter-add's positions sorted by index on the host), so they are
// deterministic and give the CPU's numbers bit for bit. Row-wise kernels (softmax, cross-entropy, argmax) come
// in two forms chosen by rowConfig: _block, a block per row with
// shared-memory trees (long rows), and _thread, a thread per row in the
// CPU's order (short or strided rows). The JVPs and VJPs of the softmax
// family, SoftmaxCrossEntropyGrad, ScaleRows, ScaleCols, SliceBroadcast
// and their adjoints are compositions of device ops; AllClose and
// MaxAbsDiff copy device operands to the host.
//
// # Adding a kernel
//
// For a new elementwise op with a tensorops op code (say Log):
//
//  1. Kernel: add GAD_UNARY(log, gad_log(x)) to internal/kern/unary_math.h
//     (math) or unary.h (no math); binary ops GAD_BINARY(name, expr in x,
//     y) in binary.h. Write device math (gad_log for double, and float if
//     it needs its own) in devmath.h, with only +, *, __builtin_fma,
//     __builtin_rint and bit casts. The formula must be that of the CPU
//     kernel (unScalar/binScalar in tensorops/kernels.go).
//  2. Declaration: add "Log": elemUnary("gad_log") to unaryMathOps in
//     ops_unary_math.go (unaryOps in ops_unary.go, binaryOps in
//     ops_binary.go). The op's name is tensorops' (unOpNames, binOpNames
//     in tensorops/device.go).
//  3. PTX: go generate ./gpu/internal/kern (needs clang++-16 16.0.6, Debian
//     12: apt-get install clang-16; genptx refuses another version, since
//     CI compares the committed PTX with a regenerated one). Commit the
//     .h, .go and .ptx files together.
//  4. Tests: delete the op's line from notOnDevice (todo_test.go), then
//     go test ./gpu: TestConformanceHost runs the op through the host
//     shim against the CPU reference, TestPTXSignatures and
//     TestHostKernels check the entry. GAD_GPU_TRY=Log go test -run
//     TestConformanceHost ./gpu runs a skipped op's tests first.
//
// For an op that is not elementwise (softmax, cross-entropy, argmax,
// conv):
//
//  1. Kernel: an extern "C" __global__ entry per dtype in the group's .h
//     (nn.h for softmax and cross-entropy; a new file included once from
//     all.h for a new group), following the ABI above, each followed by
//     GAD_KERNEL.
//  2. Backend method: in tensorops, a small optional interface next to
//     the op (e.g. in nn.go: type deviceSoftmax interface{ Softmax(op
//     string, dst, src DeviceArray, outer, n, inner int) error }), which
//     the op calls when its operand is on a device (devExt type-asserts
//     the registered backend, and panics "not implemented" when it does
//     not implement it), allocating its result with allocOn(op, a.dev,
//     ...). Do not grow DeviceBackend for one op.
//  3. Go side: implement the method in the group's ops_*.go (ops_nn.go),
//     declare the kernels there with their parameter kinds (kernel{...}
//     or pair(...)) and list them in the group's slice (nnKernels); a new
//     group's slice or table is added once to declared() in kernels.go.
//  4. PTX and tests as above.
//
// Each op group has its own .h and ops_*.go file (unary, unary_math,
// binary, copy, reduce, gemm, nn, conv, pooling, gather, products), so engineers working on different
// groups do not edit the same files; the shared files (elementwise.h,
// geom.h, devmath.h, kernels.go) change only for new conventions.
package gpu
