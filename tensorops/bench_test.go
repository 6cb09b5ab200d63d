package tensorops_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	T "github.com/gadgen/gadgen/tensorops"
)

// withBLAS runs b with the named BLAS backend, restoring the previous one.
func withBLAS(b *testing.B, name string) func() {
	prev := T.BLAS()
	// A benchmark of a backend this machine lacks (OpenBLAS not installed).
	if err := T.SetBLAS(name); err != nil {
		b.Skipf("BLAS %q not available: %v", name, err)
	}
	return func() {
		if prev == "gonum (pure Go)" {
			T.SetBLAS("gonum")
		} else {
			T.SetBLAS("openblas")
		}
	}
}

// BenchmarkGemm measures n×n×n matrix products (MatMulTo) on each BLAS
// backend, in GFLOP/s, with GOMAXPROCS threads (-cpu), as
// BenchmarkGemmDirectCgo does.
func BenchmarkGemm(b *testing.B) {
	T.SetThreads(T.Threads())
	defer T.SetThreads(0)
	for _, backend := range []string{"gonum", "openblas"} {
		for _, dt := range []T.DType{T.Float64, T.Float32} {
			for _, n := range []int{64, 128, 256, 512, 1024} {
				b.Run(fmt.Sprintf("%s/%v/n=%d", backend, dt, n), func(b *testing.B) {
					defer withBLAS(b, backend)()
					b.Logf("backend %s", T.BLAS())
					rng := rand.New(rand.NewPCG(1, uint64(n)))
					x, y := T.RandN(rng, dt, n, n), T.RandN(rng, dt, n, n)
					z := T.New(dt, n, n)
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						T.MatMulTo(z, x, y)
					}
					flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
					b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

// BenchmarkElementwise measures Add, Tanh and Sum on 10⁶ float64
// elements with 1 and 2 threads, and logs the speedup.
func BenchmarkElementwise(b *testing.B) {
	const n = 1_000_000
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := T.RandN(rng, T.Float64, n), T.RandN(rng, T.Float64, n)
	z := T.New(T.Float64, n)
	m := T.RandN(rng, T.Float64, 1000, 1000)
	ops := []struct {
		name string
		f    func()
	}{
		{"Add", func() { T.AddTo(z, x, y) }},
		{"Tanh", func() { T.TanhTo(z, x) }},
		{"SumAll", func() { T.SumAll(x) }},
		{"Sum1", func() { T.Sum(m, 1) }},
		{"Sum0", func() { T.Sum(m, 0) }},
	}
	defer T.SetThreads(0)
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			var per [3]time.Duration
			for _, th := range []int{1, 2} {
				b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
					T.SetThreads(th)
					op.f()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						op.f()
					}
					per[th] = b.Elapsed() / time.Duration(b.N)
					b.ReportMetric(float64(n)/b.Elapsed().Seconds()*float64(b.N)/1e6, "Melem/s")
				})
			}
			if per[2] > 0 {
				b.Logf("%s on 10⁶ elements: %v with 1 thread, %v with 2: speedup %.2f", op.name, per[1], per[2], float64(per[1])/float64(per[2]))
			}
		})
	}
}

// BenchmarkSmall measures the fixed cost of an op on small tensors, which
// dominates code with many small tensors.
func BenchmarkSmall(b *testing.B) {
	x, y := T.Ones(4, 4), T.Ones(4)
	b.Run("Add4x4", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			T.Add(x, x)
		}
	})
	b.Run("AddBroadcast4x4+4", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			T.Add(x, y)
		}
	})
	b.Run("MatMul4x4", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			T.MatMul(x, x)
		}
	})
}

// BenchmarkSymmetric compares, on one thread (GOMAXPROCS 1 too, for
// gonum's GEMM starts its own goroutines), GEMM with SYMM for H·B, H
// [n, n] marked symmetric (Symmetrize) and B [n, n], and GEMM with SYRK
// for aᵀa (MatMulT(a, a, true, false) against Gram(a, true), which
// includes mirroring the triangle), on each backend. It logs the best
// times of interleaved trials (robust to other load on the machine) and
// their ratios. Run with -benchtime=1x:
//
//	go test -run '^$' -bench Symmetric -benchtime 1x -v ./tensorops
func BenchmarkSymmetric(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	T.SetThreads(1)
	defer T.SetThreads(0)
	for _, backend := range []string{"openblas", "gonum"} {
		b.Run(backend, func(b *testing.B) {
			defer withBLAS(b, backend)()
			for i := 0; i < b.N; i++ {
				for _, n := range []int{256, 512, 1024} {
					rng := rand.New(rand.NewPCG(1, uint64(n)))
					h := T.Symmetrize(T.RandN(rng, T.Float64, n, n))
					plain := h.Clone() // unmarked: GEMM
					x := T.RandN(rng, T.Float64, n, n)
					ops := []func(){
						func() { T.MatMul(plain, x) },
						func() { T.MatMul(h, x) },
						func() { T.MatMulT(x, x, true, false) },
						func() { T.Gram(x, true) },
					}
					trials := max(3, 15*256/n)
					best := [4]time.Duration{time.Hour, time.Hour, time.Hour, time.Hour}
					for trial := 0; trial < trials; trial++ {
						for j, f := range ops {
							t0 := time.Now()
							f()
							best[j] = min(best[j], time.Since(t0))
						}
					}
					b.Logf("%s n=%4d: H·B GEMM %9v, SYMM %9v (%.2f× GEMM's time); aᵀa GEMM %9v, SYRK %9v (%.2f×)",
						T.BLAS(), n, best[0], best[1], float64(best[1])/float64(best[0]),
						best[2], best[3], float64(best[3])/float64(best[2]))
				}
			}
		})
	}
}
