package gpu

// This file defines how Go declares and launches the kernels of
// gpu/internal/kern: a kernel is an extern "C" entry with a parameter
// list of launch.Kinds, declared next to the Go code that launches it
// (ops_*.go); every launch checks its arguments against the
// declaration, and TestPTXSignatures checks the declarations against the
// PTX, so the Go side, the PTX and the host shim cannot drift apart.

import (
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// kernel is one kernel entry and its parameters.
type kernel struct {
	name   string
	params []launch.Kind
}

// pair declares the kernels base_f64 and base_f32 (indexed by dtIndex),
// whose parameters are params with launch.KElem standing for double in
// the first and float in the second.
func pair(base string, params ...launch.Kind) [2]kernel {
	var ks [2]kernel
	for i, suffix := range [2]string{"_f64", "_f32"} {
		elem := launch.KF64
		if i == 1 {
			elem = launch.KF32
		}
		ps := make([]launch.Kind, len(params))
		for j, p := range params {
			if p == launch.KElem {
				p = elem
			}
			ps[j] = p
		}
		ks[i] = kernel{name: base + suffix, params: ps}
	}
	return ks
}

// dtIndex is the index of dt's kernel in a pair.
func dtIndex(dt T.DType) int {
	if dt == T.Float32 {
		return 1
	}
	return 0
}

// declared returns every declared kernel, sorted by name: the kernels of
// each op group's tables (a new ops_*.go file adds its tables here).
func declared() []kernel {
	var ks []kernel
	for _, tab := range []map[string][2]kernel{unaryOps, unaryMathOps, binaryOps} {
		for _, p := range tab {
			ks = append(ks, p[0], p[1])
		}
	}
	for _, group := range [][]kernel{copyKernels, reduceKernels, gemmKernels, nnKernels, poolKernels, gatherGroup} {
		ks = append(ks, group...)
	}
	slices.SortFunc(ks, func(a, b kernel) int {
		if a.name < b.name {
			return -1
		}
		if a.name > b.name {
			return 1
		}
		return 0
	})
	return slices.CompactFunc(ks, func(a, b kernel) bool { return a.name == b.name })
}

var argsPool = sync.Pool{New: func() any { return new(launch.Args) }}

// newArgs returns empty Args from a pool; release returns them.
func newArgs() *launch.Args {
	a := argsPool.Get().(*launch.Args)
	a.Reset()
	return a
}

func release(a *launch.Args) { argsPool.Put(a) }

// launch checks a against k's declaration and launches k on st. keep are
// the buffers the kernel uses, kept alive until the launch is queued
// (their blocks are reused in stream order after that).
func (st *devState) launch(k *kernel, grid, block launch.Dim3, shared int, a *launch.Args, keep ...*buffer) error {
	defer release(a)
	if err := checkArgs(k, a); err != nil {
		return err
	}
	err := st.l.Launch(k.name, grid, block, shared, a)
	runtime.KeepAlive(keep)
	if err != nil {
		return fmt.Errorf("gpu: %s: %w", k.name, err)
	}
	return nil
}

// checkArgs reports a mismatch between a launch's arguments and the
// kernel's declaration.
func checkArgs(k *kernel, a *launch.Args) error {
	ok := a.N == len(k.params)
	for i := 0; ok && i < a.N; i++ {
		ok = a.Kinds[i] == k.params[i]
	}
	if !ok {
		return fmt.Errorf("gpu: internal error: %s launched with (%v), declared (%v)", k.name, a.Kinds[:a.N], k.params)
	}
	return nil
}

// elemConfig returns a grid-stride launch of n > 0 elements: blocks of up
// to 256 threads, at most 8 blocks per SM.
func (st *devState) elemConfig(n int) (grid, block launch.Dim3) {
	b := min(256, st.props.MaxThreadsPerBlock)
	g := min((n+b-1)/b, 8*st.props.MultiProcessors)
	return launch.Dim3{X: uint32(g), Y: 1, Z: 1}, launch.Dim3{X: uint32(b), Y: 1, Z: 1}
}

// pow2Block returns the largest power of two ≤ min(want, the device's
// limit): the block size of tree reductions.
func (st *devState) pow2Block(want int) int {
	b := 1
	for b*2 <= min(want, st.props.MaxThreadsPerBlock) {
		b *= 2
	}
	return b
}
