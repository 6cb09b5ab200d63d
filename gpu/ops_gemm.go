package gpu

import (
	"runtime"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// gemmKernels are the tiled GEMM of kern/gemm.h, used when cuBLAS is not
// (cublas.go: no libcublas, SetGEMM("tiled"), or sizes cuBLAS refuses).
var (
	gemmPair = pair("gad_gemm",
		launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KI64, launch.KElem,
		launch.KPtr, launch.KI64, launch.KPtr, launch.KI64, launch.KElem, launch.KPtr, launch.KI64)
	gemmKernels = gemmPair[:]
)

// gemmThreads is GAD_GEMM_THREADS of gemm.h: the kernels' (1-D) block.
const gemmThreads = 256

// gemmTile is the square tile of C a block computes, by dtype index:
// GAD_GEMM_F64_TILE and GAD_GEMM_F32_TILE of gemm.h.
var gemmTile = [2]int{64, 128}

func (backend) Gemm(dt T.DType, transA, transB bool, m, n, k int, alpha float64,
	a T.DeviceBuffer, oa, lda int, b T.DeviceBuffer, ob, ldb int,
	beta float64, c T.DeviceBuffer, oc, ldc int) error {
	ab, bb, cb := a.(*buffer), b.(*buffer), c.(*buffer)
	st := cb.st
	if bd, _ := st.cublasDev(); bd != nil {
		done, err := bd.gemm(dt, transA, transB, m, n, k, alpha, ab.at(oa), lda, bb.at(ob), ldb, beta, cb.at(oc), ldc)
		runtime.KeepAlive(ab)
		runtime.KeepAlive(bb)
		runtime.KeepAlive(cb)
		if done {
			return err
		}
	}
	flag := func(t bool) int {
		if t {
			return 1
		}
		return 0
	}
	args := newArgs().I64(flag(transA)).I64(flag(transB)).I64(m).I64(n).I64(k)
	scalar := func(v float64) {
		if dt == T.Float32 {
			args.F32(float32(v))
		} else {
			args.F64(v)
		}
	}
	scalar(alpha)
	args.Ptr(ab.at(oa)).I64(lda).Ptr(bb.at(ob)).I64(ldb)
	scalar(beta)
	args.Ptr(cb.at(oc)).I64(ldc)
	tile := gemmTile[dtIndex(dt)]
	grid := launch.Dim3{X: uint32((n + tile - 1) / tile), Y: uint32((m + tile - 1) / tile), Z: 1}
	block := launch.Dim3{X: gemmThreads, Y: 1, Z: 1}
	return st.launch(&gemmPair[dtIndex(dt)], grid, block, 0, args, ab, bb, cb)
}
