package gpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// BenchmarkGEMM times square GEMM C = A·B on GPU 0, n = 256 … 4096 (-short:
// up to 1024), float64 and float32, three ways:
//
//   - raw: cuBLAS called directly on device buffers (the binding, no
//     tensorops);
//   - cublas: tensorops.MatMulTo on device tensors with SetGEMM("cublas");
//   - tiled: the same with SetGEMM("tiled") (the kernel of gemm.h).
//
// Each reports GFLOP/s (2n³ per GEMM, the work queued and waited for) and,
// for cublas and tiled, x_raw: its GFLOP/s over raw cuBLAS's (the targets
// are ≥ 0.9 for cublas and ≥ 0.5 for tiled). Without libcublas only tiled
// runs. It skips without a GPU.
func BenchmarkGEMM(b *testing.B) {
	// Only on a machine with a GPU: CI has none and never runs it.
	if err := Available(); err != nil {
		b.Skipf("no GPU: %v", err)
	}
	useCublas(nil)
	defer useCublas(nil)
	ns := []int{256, 512, 1024, 2048, 4096}
	if testing.Short() {
		ns = ns[:3]
	}
	benchGEMM(b, ns)
}

// benchGEMM is BenchmarkGEMM on device 0 at sizes ns.
func benchGEMM(b *testing.B, ns []int) {
	st, err := state(0)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("device 0: %s", st.l.Name())
	blasErr := SetGEMM("cublas")
	var bd *blasDev
	if blasErr == nil {
		var why string
		if bd, why = st.cublasDev(); bd == nil {
			blasErr = fmt.Errorf("%s", why)
		} else {
			b.Logf("cuBLAS: %s", bd.api.lib)
		}
	}
	if blasErr != nil {
		b.Logf("no cuBLAS (tiled only): %v", blasErr)
	}
	dev := Device(0)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for _, n := range ns {
			a, bm := T.RandN(rng, dt, n, n).To(dev), T.RandN(rng, dt, n, n).To(dev)
			c := T.New(dt, n, n).To(dev)
			flops := 2 * float64(n) * float64(n) * float64(n)
			var raw float64 // GFLOP/s
			run := func(impl string, f func()) {
				b.Run(fmt.Sprintf("%v/n=%d/%s", dt, n, impl), func(b *testing.B) {
					f() // warm up: the handle, the module, the pool
					if err := st.l.Sync(); err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					for range b.N {
						f()
					}
					if err := st.l.Sync(); err != nil {
						b.Fatal(err)
					}
					gflops := flops * float64(b.N) / b.Elapsed().Seconds() / 1e9
					b.ReportMetric(gflops, "GFLOP/s")
					if impl == "raw" {
						raw = gflops
					} else if raw > 0 {
						b.ReportMetric(gflops/raw, "x_raw")
					}
				})
			}
			if bd != nil {
				ab, bb, cb := deviceRand(b, st, rng, dt, n*n), deviceRand(b, st, rng, dt, n*n), deviceRand(b, st, rng, dt, n*n)
				run("raw", func() {
					if _, err := bd.gemm(dt, false, false, n, n, n, 1, ab.at(0), n, bb.at(0), n, 0, cb.at(0), n); err != nil {
						b.Fatal(err)
					}
				})
				if err := SetGEMM("cublas"); err != nil {
					b.Fatal(err)
				}
				run("cublas", func() { T.MatMulTo(c, a, bm) })
			}
			if err := SetGEMM("tiled"); err != nil {
				b.Fatal(err)
			}
			run("tiled", func() { T.MatMulTo(c, a, bm) })
		}
	}
}

// deviceRand returns a buffer of n random elements of dtype dt on st.
func deviceRand(b *testing.B, st *devState, rng *rand.Rand, dt T.DType, n int) *buffer {
	buf, err := newBuffer(st, n, esize(dt))
	if err != nil {
		b.Fatal(err)
	}
	var host any
	if dt == T.Float32 {
		host = T.RandN(rng, dt, n).Float32s()
	} else {
		host = T.RandN(rng, dt, n).Float64s()
	}
	if err := (backend{}).Upload(buf, 0, host); err != nil {
		b.Fatal(err)
	}
	return buf
}
