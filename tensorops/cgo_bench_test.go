//go:build cgo && gadgen_openblas

package tensorops_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
	"github.com/gadgen/gadgen/tensorops/internal/cblasdirect"
)

// BenchmarkGemmDirectCgo calls OpenBLAS's cblas_dgemm and cblas_sgemm
// directly through cgo, for comparison with BenchmarkGemm/openblas:
//
//	go test -tags gadgen_openblas -bench 'Gemm' ./tensorops
func BenchmarkGemmDirectCgo(b *testing.B) {
	cblasdirect.SetThreads(T.Threads())
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for _, n := range []int{64, 128, 256, 512, 1024} {
			b.Run(fmt.Sprintf("%v/n=%d", dt, n), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, uint64(n)))
				x, y := T.RandN(rng, dt, n, n), T.RandN(rng, dt, n, n)
				z := T.New(dt, n, n)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if dt == T.Float64 {
						cblasdirect.Dgemm(n, n, n, x.Float64s(), y.Float64s(), z.Float64s())
					} else {
						cblasdirect.Sgemm(n, n, n, x.Float32s(), y.Float32s(), z.Float32s())
					}
				}
				flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
