package tensorops

// This file defines the reuse of buffers across calls: Release hands a
// temporary's elements back, and alloc takes a buffer of the same dtype
// and size from there before it asks Go's allocator for fresh memory.
// Generated derivatives release, before they return, the temporaries
// that nothing else can reach (simplify's release pass), so that a
// gradient called again finds its buffers warm in the cache and the
// garbage collector has less to do: what PyTorch's caching allocator
// gives its operations.

import (
	"math"
	"os"
	"sync"
	"unsafe"
)

// poison, set by GADGEN_RELEASE_POISON=1 in the environment, makes
// Release fill the buffers with NaN instead of pooling them, and panic
// when it is given a buffer twice: a read of a released buffer then shows
// in the results (the tests of generated code run with it).
var poison = os.Getenv("GADGEN_RELEASE_POISON") == "1"

// poolMin is the smallest buffer (in elements) worth pooling: below it,
// Go's allocator is as fast as a pool.
const poolMin = 1024

// poolKey identifies a size class: a dtype and a number of elements.
type poolKey struct {
	dt DType
	n  int
}

// pools holds a sync.Pool per size class, so that buffers no call takes
// again go back to the garbage collector.
var pools sync.Map // poolKey → *sync.Pool

func poolOf(k poolKey) *sync.Pool {
	if p, ok := pools.Load(k); ok {
		return p.(*sync.Pool)
	}
	p, _ := pools.LoadOrStore(k, new(sync.Pool))
	return p.(*sync.Pool)
}

// pooled returns a buffer of n elements of dt (T's dtype) from the pool,
// zeroed if zero, or nil.
func pooled[T Float](dt DType, n int, zero bool) []T {
	if n < poolMin {
		return nil
	}
	p, ok := pools.Load(poolKey{dt, n})
	if !ok {
		return nil
	}
	b, _ := p.(*sync.Pool).Get().(*[]T)
	if b == nil {
		return nil
	}
	if zero {
		clear(*b)
	}
	return *b
}

// Release hands the elements of each tensor back to tensorops, for a
// later tensor of the same dtype and size: the tensors, and every view
// of their elements, must not be used afterwards (the tensors are left
// without elements, so that a use panics), and a buffer must be released
// once. Nil tensors, tensors on a device and small tensors are left alone.
// Generated derivatives call it for their temporaries before they return.
func Release(ts ...*Tensor) {
	for _, t := range ts {
		if t == nil || t.dev != CPU {
			continue
		}
		if poison {
			poisonBuffer(t)
			continue
		}
		pool(Float64, &t.f64)
		pool(Float32, &t.f32)
	}
}

// pool puts the whole of *buf, of dtype dt, into its size's pool and
// leaves *buf nil, unless it is small.
func pool[T Float](dt DType, buf *[]T) {
	if b := *buf; cap(b) >= poolMin {
		b = b[:cap(b)]
		poolOf(poolKey{dt, len(b)}).Put(&b)
		*buf = nil
	}
}

// poisoned holds, with poison, the buffers released so far (kept alive,
// so that their addresses identify them) by the address of their first
// element.
var poisoned struct {
	sync.Mutex
	bufs map[unsafe.Pointer]any
}

// poisonBuffer fills t's buffer with NaN, and panics if it was released
// before: two releases of one buffer would give it to two tensors.
func poisonBuffer(t *Tensor) {
	addr, buf := fillNaN(t.f64)
	if addr == nil {
		addr, buf = fillNaN(t.f32)
	}
	if addr == nil {
		return
	}
	poisoned.Lock()
	defer poisoned.Unlock()
	if poisoned.bufs == nil {
		poisoned.bufs = map[unsafe.Pointer]any{}
	}
	if _, twice := poisoned.bufs[addr]; twice {
		panic("tensorops: Release: a buffer released twice")
	}
	poisoned.bufs[addr] = buf
}

// fillNaN fills the whole of b (to its capacity) with NaN and returns
// the address of its first element and the buffer, or nil when b has no
// elements.
func fillNaN[T Float](b []T) (unsafe.Pointer, any) {
	b = b[:cap(b)]
	if len(b) == 0 {
		return nil, nil
	}
	nan := T(math.NaN())
	for i := range b {
		b[i] = nan
	}
	return unsafe.Pointer(&b[0]), b
}
