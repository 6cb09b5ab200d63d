package tensorops

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkThreshold measures kernels around the parallel threshold with 1
// and 2 threads, and logs a table of the best times of interleaved trials
// (robust to other load on the machine) and the speedups; the grains above
// come from it. The grains are set to 1 during the benchmark, so that every
// size is split. Run with -benchtime=1x:
//
//	go test -run '^$' -bench Threshold -benchtime 1x -v ./tensorops
func BenchmarkThreshold(b *testing.B) {
	defer SetThreads(0)
	defer SetGrainsForTest(1, 1)()
	rng := rand.New(rand.NewPCG(1, 2))
	x := RandN(rng, Float64, 1<<20)
	y := RandN(rng, Float64, 1<<20)
	z := New(Float64, 1<<20)
	ops := []struct {
		name string
		f    func(n int)
	}{
		{"Add", func(n int) {
			AddTo(z.view([]int{n}, []int{1}, 0), x.view([]int{n}, []int{1}, 0), y.view([]int{n}, []int{1}, 0))
		}},
		{"Tanh", func(n int) { TanhTo(z.view([]int{n}, []int{1}, 0), x.view([]int{n}, []int{1}, 0)) }},
		{"SumAll", func(n int) { sumAll(x.f64[:n]) }},
	}
	for i := 0; i < b.N; i++ {
		for _, op := range ops {
			for _, n := range []int{4096, 16384, 32768, 65536, 131072, 262144, 524288, 1 << 20} {
				reps := max(1, 1<<21/n)
				if op.name == "Tanh" {
					reps = max(1, reps/16)
				}
				best := [3]time.Duration{time.Hour, time.Hour, time.Hour}
				for trial := 0; trial < 15; trial++ {
					for _, th := range []int{1, 2} {
						SetThreads(th)
						t0 := time.Now()
						for r := 0; r < reps; r++ {
							op.f(n)
						}
						best[th] = min(best[th], time.Since(t0)/time.Duration(reps))
					}
				}
				b.Logf("%-6s n=%7d: 1 thread %10v, 2 threads %10v, speedup %.2f", op.name, n, best[1], best[2], float64(best[1])/float64(best[2]))
			}
		}
	}
}

// TestChildProcess is run by TestLazyBLAS in a fresh process.
func TestChildProcess(t *testing.T) {
	// Not a test of its own: the child process TestLazyBLAS starts runs it.
	if os.Getenv("TENSOROPS_CHILD") != "1" {
		t.Skip("run by TestLazyBLAS in a child process")
	}
	fmt.Printf("tried=%v\n", cblasTried.Load())
	Add(Ones(2, 2), Ones(2))
	SumAll(Ones(3))
	fmt.Printf("tried=%v\n", cblasTried.Load())
	MatMul(Ones(2, 2), Ones(2, 2))
	fmt.Printf("blas=%s\n", BLAS())
	fmt.Printf("tried=%v\n", cblasTried.Load())
}

// TestLazyBLAS checks that no library is loaded before the first matrix
// product, and that GADGEN_BLAS=gonum selects the pure-Go backend without
// loading one.
func TestLazyBLAS(t *testing.T) {
	for _, tc := range []struct {
		env, want string
	}{
		{"gonum", "tried=false\ntried=false\nblas=gonum (pure Go)\ntried=false\n"},
		{"", "tried=false\ntried=false\nblas=%s\ntried=true\n"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$")
		cmd.Env = append(os.Environ(), "TENSOROPS_CHILD=1", "GADGEN_BLAS="+tc.env)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GADGEN_BLAS=%q: child: %v\n%s", tc.env, err, out)
		}
		want := tc.want
		if strings.Contains(want, "%s") {
			c, _ := loadCBLAS()
			var b blasImpl = gonumBLAS{}
			if c != nil {
				b = c
			}
			want = fmt.Sprintf(want, b.name())
		}
		if got := strings.TrimSuffix(string(out), "PASS\n"); got != want {
			t.Errorf("GADGEN_BLAS=%q: got\n%s\nwant\n%s", tc.env, got, want)
		}
	}
}

func TestSetBLASUnknown(t *testing.T) {
	prev := BLAS()
	if err := SetBLAS("mkl"); err == nil || !strings.Contains(err.Error(), `unknown backend "mkl"`) {
		t.Errorf("SetBLAS(\"mkl\"): got %v, want an unknown-backend error", err)
	}
	if BLAS() != prev {
		t.Errorf("SetBLAS(\"mkl\") changed the backend from %s to %s", prev, BLAS())
	}
}

// TestThreadsDeterministic checks that results do not depend on the number
// of threads, bit for bit.
func TestThreadsDeterministic(t *testing.T) {
	defer SetThreads(0)
	rng := rand.New(rand.NewPCG(5, 6))
	x := RandN(rng, Float64, 300, 1000)
	x32 := AsType(x, Float32)
	run := func() []float64 {
		return []float64{SumAll(x), SumAll(x32), Sum(x, 0).At(17), Sum(x, 1).At(200), MaxAll(x),
			Mean(x32, 0).At(3), Tanh(x).At(250, 999), SumAll(Softmax(x, 1))}
	}
	SetThreads(1)
	one := run()
	for _, n := range []int{2, 3, 7} {
		SetThreads(n)
		if got := run(); !slices.Equal(got, one) {
			t.Errorf("%d threads: got %v, want %v (1 thread)", n, got, one)
		}
	}
}

// TestParallelPartition checks that parallel covers [0, n) exactly once.
func TestParallelPartition(t *testing.T) {
	defer SetThreads(0)
	for _, th := range []int{1, 2, 3, 8} {
		SetThreads(th)
		for _, n := range []int{0, 1, 31, 32, 100, grainCheap - 1, grainCheap, 3*grainCheap + 7} {
			hits := make([]int32, n)
			parallel(n, grainCheap, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("threads %d, n %d: element %d covered %d times, want 1", th, n, i, h)
				}
			}
		}
	}
}

// TestLoopCollapse checks the loop nest's merging of dimensions.
func TestLoopCollapse(t *testing.T) {
	for _, tc := range []struct {
		shape   []int
		strides [][]int
		want    []int
	}{
		{[]int{2, 3, 4}, [][]int{{12, 4, 1}, {12, 4, 1}}, []int{24}},
		{[]int{2, 3, 4}, [][]int{{12, 4, 1}, {0, 0, 1}}, []int{6, 4}},
		{[]int{2, 1, 4}, [][]int{{4, 4, 1}, {0, 7, 0}}, []int{8}},
		{[]int{2, 1, 4}, [][]int{{4, 4, 1}, {0, 7, 1}}, []int{2, 4}},
		{[]int{1, 1}, [][]int{{1, 1}}, []int{1}},
		{[]int{3, 4}, [][]int{{1, 3}}, []int{3, 4}},
	} {
		offs := make([]int, len(tc.strides))
		if got := newLoopStrides(tc.shape, tc.strides, offs).shape; !slices.Equal(got, tc.want) {
			t.Errorf("newLoop(%v, %v): got shape %v, want %v", tc.shape, tc.strides, got, tc.want)
		}
	}
}

// BenchmarkWake measures the round trip of handing work to a second
// goroutine (the fixed cost that the grains must cover).
func BenchmarkWake(b *testing.B) {
	defer SetThreads(0)
	SetThreads(2)
	gc := grainCheap
	grainCheap = 1
	defer func() { grainCheap = gc }()
	for i := 0; i < b.N; i++ {
		parallel(64, grainCheap, func(lo, hi int) {})
	}
}
