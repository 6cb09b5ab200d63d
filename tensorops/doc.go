// Package tensorops is gadgen's tensor runtime: dense n-dimensional arrays
// of float64 or float32 and the operations that the code gadgen generates
// calls, forward (the primal ops) and backward (the helpers of the
// derivative rules: SumLike, ExpandAxis, MaxGrad, MatMulGradA, ...), and
// the forms that gadgen's final rewrites call: MatMulEach, SliceFor,
// Accumulate…, and Fuse and FuseInto (below).
//
// # The Tensor type
//
// A *Tensor is a row-major array with a dtype (Float64 or Float32), a
// shape, strides in elements and an offset into a backing slice. One Go
// type serves both dtypes; an op takes the dtype of its operands and panics
// when they differ. A zero-dimensional tensor (shape []) holds one element
// (Scalar).
//
// Float32 tensors are computed in float32 where that is accurate; the
// transcendental functions other than Tanh round package math's float64
// results, within half an ulp. Tanh has its own kernels in both dtypes
// (tanh.go): within 3 ulps of math.Tanh (of its result rounded to float32
// for float32), and on amd64 with AVX2 four float64 or eight float32
// elements at a time (assembly generated from one description of the
// algorithm, the same bits as the scalar path): 5.7× faster than
// math.Tanh in float64, 11× in float32.
//
// # Views and copies
//
// Every op returns a fresh contiguous tensor, except the documented views,
// which share their operand's elements: FromFloat64s, FromFloat32s,
// FromDense, FromVecDense, Tensor.Dense, Tensor.VecDense, Reshape of a
// contiguous tensor, Unsqueeze, Squeeze, AsStrided, Tensor.Contiguous of a
// contiguous tensor (the tensor itself), and the nil-as-zero shortcuts
// below. Transpose and Slice copy (Transpose of a matrix marked symmetric
// is a row-major copy, still marked). Every op accepts strided
// (non-contiguous) operands, such as views of a *mat.Dense made by
// mat.Dense.Slice.
//
// # Conventions
//
// Binary elementwise ops broadcast like numpy: trailing dimensions align,
// and a dimension of size 1, or a missing leading one, is repeated. A
// negative axis counts from the end. Destination-first forms XxxTo(dst, ...)
// write into dst, which must have the result's shape and dtype, and return
// it; for elementwise ops dst may be one of the operands (the same
// tensor), not for MatMulTo and Gemm. The results of the elementwise and
// reduction kernels do not depend on the number of threads: every output
// element is computed by one goroutine, and SumAll adds fixed-size blocks
// in order.
//
// Errors of use panic, with messages of the form
// "tensorops: Add: shapes [2 3] and [4 5] do not broadcast" that name the
// op and the shapes involved; each function documents when it panics.
//
// # The nil convention of automatic differentiation
//
// A nil *Tensor is a zero tensor of the right shape wherever an operation
// is linear in the operand, so that the tangents and adjoints that
// generated derivatives never computed cost nothing (a fixed input's
// tangent, an adjoint no use wrote), and so that a sum may start from nil
// (var acc *Tensor; acc = Add(acc, x)). Precisely:
//
//   - Sums: Add(nil, b) returns b itself (no copy), Add(a, nil) returns a,
//     Add(nil, nil) is nil; Sub(a, nil) is a, Sub(nil, b) is Neg(b);
//     AddTo(dst, a, nil) copies a into dst and AddInto(dst, nil) does
//     nothing; Accumulate(nil, g) is a copy of g, Accumulate(dst, nil) is
//     dst (reverse mode's gradients start from nil).
//   - Linear maps return nil for a nil operand (0 for a float result):
//     Neg, Scale, AddScalar and Affine (with a zero scalar term), Div (the dividend), SumAll, MeanAll, Sum, Mean, the
//     shape operations (Transpose, Reshape, Squeeze, Unsqueeze, Slice,
//     SliceBroadcast, Pad, Broadcast, Diag, DiagPart, …), AsType, Gather,
//     Embedding, AvgPool2D, and AtJVP. Concat, whose pieces' shapes make
//     the result's, takes no nil piece; ConcatJVP takes nil tangents.
//   - Bilinear maps return nil when either operand is nil: Mul, MatMul,
//     MatMulT, ScaleRows, ScaleCols, Outer, Dot (0), Conv2D and
//     Conv2DDilated.
//   - Derivative helpers (…Grad, …GradA, …GradB, …GradV, …JVP, …VJP,
//     …Place, SumLike, ExpandLike, BroadcastLike, AsTypeLike, OrZerosLike,
//     the Accumulate forms; MaxPool2DJVP, MaxPool2DGrad, AvgPool2DGrad,
//     GatherGrad, GELUJVP, SiLUJVP) return nil for a nil tangent or
//     adjoint, and for a nil operand of a product they are bilinear in
//     (Conv2DGradX's w, and the dilated forms'); their arguments that give
//     only a shape ("like") may be nil where the operand they stand for
//     was nil: SumLike(g, nil) and AtGrad(g, nil, …) are nil, the adjoint
//     of a nil operand going nowhere.
//
// Every rule of gadgen's rule table keeps this convention: its
// derivatives called with nil tangents, coefficients or seeds give what
// zero tensors give (a test runs each rule so).
//
// Every other op panics on a nil operand. Derivative conventions: at ties,
// Max, MaxAll (and ArgMax) give the derivative to the first maximum, and
// MaxPool2D to the first maximum of each window in row-major order;
// Maximum and Minimum give half to each operand; ReLU's derivative is Step
// (0 at 0); Std's and StdAll's is 0 where the variance is 0.
//
// # Fused elementwise expressions
//
// Fuse evaluates a tree of elementwise operations, written as a readable
// expression over its operands, in one pass over the data:
// Fuse("(1 - a*a)*d - 2*a*b*c", h, g, dh, dg) is bit for bit
// Sub(Mul(Affine(Mul(h, h), -1, 1), dg), Mul(Mul(Scale(h, 2), g), dh)),
// with the broadcasting, nil operands and panics of those operations, but
// allocates only the result. FuseInto computes it into a buffer the
// caller no longer needs. Generated derivatives call them where
// gadgen fused chains of elementwise calls.
//
// # Buffers reused across calls
//
// Release hands tensors' buffers back to tensorops; the next tensors of
// the same dtype and size take them instead of fresh memory (zeroed, warm
// in the cache, nothing for the garbage collector). Generated derivatives
// release their temporaries before they return. With
// GADGEN_RELEASE_POISON=1 in the environment, Release fills the buffers
// with NaN instead, so that a read after the release shows in results.
//
// # Stacked directions
//
// Generated derivatives that take several directions per call (the HVPs
// along L vectors, the Hessian's rows, collapsed Taylor mode) can carry
// them as one tensor [L, …] whose first axis Lanes marks as the direction
// axis: the lane-aware operations (lanes.go; gadgen's rule table lists
// them) compute each direction, one GEMM for all of a product's
// directions, one pass for an elementwise operation, and broadcast
// unmarked operands over the directions. The mark never leaves generated
// code: UnlanesLike, UnlanesOf and UnlanesScalars return plain tensors.
//
// # Threads
//
// Elementwise and reduction kernels split their work across goroutines
// above a size threshold (512k elements for memory-bound kernels such as
// Add, 2M for sums, 32k for exp, tanh and the like; measured on two cores,
// see parallel.go); SetThreads sets their number (default
// runtime.GOMAXPROCS) and that of OpenBLAS's threads.
//
// # BLAS backends
//
// Matrix products go to GEMM (MatMul, MatMulT with transpose flags passed
// to GEMM rather than transposing, batched products as a loop of GEMMs),
// to SYMM when one of two matrices is marked symmetric (IsSymmetric:
// Symmetrize's and Gram's results), and Gram's aᵀa or aaᵀ to SYRK.
// The backend is chosen at the first product, never at init: OpenBLAS
// (libopenblas.so.0, libopenblas.so, then a generic libblas.so.3), loaded
// at run time with purego — no cgo, so the package builds with
// CGO_ENABLED=0 — or, when no library loads or the environment variable
// GADGEN_BLAS=gonum is set, gonum's pure-Go BLAS. BLAS reports the backend
// in use and SetBLAS switches it. The package conformance runs one test
// suite against any backend.
//
// # Devices
//
// A tensor records its Device. Tensors on another device than the CPU
// keep their elements in storage of the DeviceBackend registered for the
// device's kind (RegisterDevice; package gpu registers the CUDA backend);
// Tensor.To copies a tensor between devices. Ops dispatch on their
// operands' device at the primitives (elementwise op codes, copies,
// fills, reductions, GEMM; device.go), so that the same code runs on the
// CPU and on a GPU; results stay on the operands' device. Mixing devices
// panics ("tensorops: Add: shapes [2] and [2] are on devices cpu and
// cuda:0"), and so does an op the backend does not implement yet
// ("tensorops: Softmax: not implemented on cuda:0"). The accessors that
// read or write elements from Go (At, Set, Float64s, Dense, ...) panic
// for device tensors, except Item and String, which copy to the host.
//
// # Non-goals
//
// Integer and complex dtypes, automatic differentiation itself (gadgen
// generates it; this package only provides the rules' helpers), lazy
// evaluation or graph building, in-place views with negative strides, and
// numerical linear algebra beyond GEMM, SYMM and SYRK (use gonum's mat on
// Tensor.Dense).
package tensorops
