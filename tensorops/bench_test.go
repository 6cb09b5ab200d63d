package tensorops_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	T "github.com/gadgen/gadgen/tensorops"
)

// withBLAS runs b with the named BLAS backend, restoring the previous one.
func withBLAS(b *testing.B, name string) func() {
	prev := T.BLAS()
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
