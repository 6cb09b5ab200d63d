package tensorops

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkThreshold measures Add and Tanh around the parallel threshold
// with 1 and 2 threads; the grains in parallel.go come from it. The
// grains are set to 1 during the benchmark, so that every size is split.
func BenchmarkThreshold(b *testing.B) {
	defer SetThreads(0)
	gc, gm := grainCheap, grainMath
	grainCheap, grainMath = 1, 1
	defer func() { grainCheap, grainMath = gc, gm }()
	for _, n := range []int{2048, 4096, 8192, 16384, 32768, 65536, 131072} {
		rng := rand.New(rand.NewPCG(1, 2))
		x, y := RandN(rng, Float64, n), RandN(rng, Float64, n)
		z := New(Float64, n)
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("Add/n=%d/threads=%d", n, th), func(b *testing.B) {
				SetThreads(th)
				for i := 0; i < b.N; i++ {
					AddTo(z, x, y)
				}
			})
			b.Run(fmt.Sprintf("Tanh/n=%d/threads=%d", n, th), func(b *testing.B) {
				SetThreads(th)
				for i := 0; i < b.N; i++ {
					TanhTo(z, x)
				}
			})
		}
	}
}

