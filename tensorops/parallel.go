package tensorops

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// threads is the number of goroutines the kernels split work across; 0
// means runtime.GOMAXPROCS(0).
var threads atomic.Int64

// threadsSet records that SetThreads was called, so that OpenBLAS, when it
// is loaded later, gets the same number.
var threadsSet atomic.Bool

// Grain sizes: the number of elements below which a kernel runs on the
// calling goroutine only. They come from BenchmarkThreshold on the 2-vCPU
// amd64 (AMD EPYC, KVM) machine this package was written on, best of
// interleaved trials with the machine otherwise idle: tanh on float64s
// gains from about 32k elements (1.28× at 32k, 1.65× at 64k, 2.0× at 1M,
// 0.95× at 16k), while memory-bound kernels (add, sum, copy) gain nothing
// until about 1M elements (add: 0.88× at 512k, 1.39× at 1M; sum: 1.09× at
// 1M; Sum and SumAll of 1M float64s: 0.88× to 1.09×): the two vCPUs share
// the memory bandwidth that one already uses. Machines with more memory
// bandwidth per core gain earlier.
var (
	grainCheap  = 1 << 19 // add, mul, copy, ...
	grainMath   = 1 << 15 // exp, log, tanh, pow, softmax, ...
	grainReduce = 1 << 21 // sum, max
)

// SetThreads sets the number of goroutines the elementwise and reduction
// kernels use and, when OpenBLAS is loaded (now or later), the number of
// OpenBLAS threads (openblas_set_num_threads). n <= 0 restores the default,
// runtime.GOMAXPROCS(0). The gonum backend's GEMM chooses its own
// parallelism (it uses GOMAXPROCS).
func SetThreads(n int) {
	if n < 0 {
		n = 0
	}
	threads.Store(int64(n))
	threadsSet.Store(true)
	applyBLASThreads()
}

// Threads returns the number of goroutines the kernels use.
func Threads() int {
	n := int(threads.Load())
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return n
}

// parallel calls f on a partition of [0, n) into at most Threads() ranges,
// concurrently, when n is at least grain; else f(0, n) on the calling
// goroutine. Range boundaries are multiples of 16 elements so that writers
// do not share cache lines.
func parallel(n, grain int, f func(lo, hi int)) {
	t := Threads()
	if t <= 1 || n < grain || n < 32 {
		f(0, n)
		return
	}
	t = min(t, n/max(grain/2, 16))
	if t <= 1 {
		f(0, n)
		return
	}
	chunk := (n + t - 1) / t
	chunk = (chunk + 15) &^ 15
	var wg sync.WaitGroup
	lo := chunk
	for ; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, hi)
	}
	f(0, min(chunk, n))
	wg.Wait()
}

// parallelRows is parallel over rows of rowLen elements each: a work item
// is a row, and the grain counts elements.
func parallelRows(rows, rowLen, grain int, f func(lo, hi int)) {
	t := Threads()
	work := rows * max(rowLen, 1)
	if t <= 1 || rows < 2 || work < grain {
		f(0, rows)
		return
	}
	t = min(t, rows, work/max(grain/2, 1))
	if t <= 1 {
		f(0, rows)
		return
	}
	chunk := (rows + t - 1) / t
	var wg sync.WaitGroup
	for lo := chunk; lo < rows; lo += chunk {
		hi := min(lo+chunk, rows)
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, hi)
	}
	f(0, min(chunk, rows))
	wg.Wait()
}
