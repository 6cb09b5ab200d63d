package gpu

import (
	"runtime"
	"sync"

	"github.com/gadgen/gadgen/gpu/internal/launch"
)

// pool caches device memory by size class, so that the tensors a
// computation allocates and drops at every step reuse the same blocks
// instead of calling the driver (cuMemAlloc synchronizes the device).
// Blocks come back when their buffer becomes unreachable (a cleanup
// attached to it). Reuse is safe without synchronization because all
// work on a device is queued on one stream, in order: a kernel that
// writes a reused block runs after every earlier kernel that read it.
// Memory goes back to the driver only when an allocation fails (after a
// Sync), or on Trim.
type pool struct {
	l     launch.Launcher
	mu    sync.Mutex
	free  map[int][]launch.Ptr // by class (bytes)
	inUse int64                // bytes handed out
	held  int64                // bytes cached in free
}

// class returns the bytes allocated for a request of n bytes: a power of
// two from 256 bytes to 1 MiB, then a multiple of 1 MiB.
func class(n int) int {
	const big = 1 << 20
	if n > big {
		return (n + big - 1) / big * big
	}
	c := 256
	for c < n {
		c <<= 1
	}
	return c
}

// get returns a block of at least n > 0 bytes and its class.
func (p *pool) get(n int) (launch.Ptr, int, error) {
	c := class(n)
	p.mu.Lock()
	if l := p.free[c]; len(l) > 0 {
		ptr := l[len(l)-1]
		p.free[c] = l[:len(l)-1]
		p.held -= int64(c)
		p.inUse += int64(c)
		p.mu.Unlock()
		return ptr, c, nil
	}
	p.mu.Unlock()
	ptr, err := p.l.Alloc(c)
	if err != nil {
		// Out of memory: return the cache to the driver, let the
		// garbage collector find dropped tensors, and try again.
		p.Trim()
		runtime.GC()
		runtime.Gosched()
		p.Trim()
		if ptr, err = p.l.Alloc(c); err != nil {
			return 0, 0, err
		}
	}
	p.mu.Lock()
	p.inUse += int64(c)
	p.mu.Unlock()
	return ptr, c, nil
}

// put returns a block of class c.
func (p *pool) put(ptr launch.Ptr, c int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free == nil {
		p.free = map[int][]launch.Ptr{}
	}
	p.free[c] = append(p.free[c], ptr)
	p.inUse -= int64(c)
	p.held += int64(c)
}

// Trim frees the cached blocks, after the queued work.
func (p *pool) Trim() {
	p.l.Sync()
	p.mu.Lock()
	defer p.mu.Unlock()
	for c, l := range p.free {
		for _, ptr := range l {
			p.l.Free(ptr)
		}
		delete(p.free, c)
	}
	p.held = 0
}

// buffer is a tensor's device storage (tensorops.DeviceBuffer): n
// elements of size esize at ptr. Its block returns to the pool when the
// buffer becomes unreachable.
type buffer struct {
	st    *devState
	ptr   launch.Ptr // 0 when n is 0
	n     int
	esize int
}

func (b *buffer) Len() int { return b.n }

// at returns the address of element i.
func (b *buffer) at(i int) launch.Ptr { return b.ptr + launch.Ptr(i*b.esize) }

// newBuffer allocates n elements of esize bytes on st.
func newBuffer(st *devState, n, esize int) (*buffer, error) {
	b := &buffer{st: st, n: n, esize: esize}
	if n == 0 {
		return b, nil
	}
	ptr, c, err := st.pool.get(n * esize)
	if err != nil {
		return nil, err
	}
	b.ptr = ptr
	p := &st.pool
	runtime.AddCleanup(b, func(ptr launch.Ptr) { p.put(ptr, c) }, ptr)
	return b, nil
}
