//go:build cgo

package kern

/*
#cgo CXXFLAGS: -O2 -std=c++17 -Wall -Wno-unused-function -Wno-unknown-pragmas
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *gad_host_launch(const char *name, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                            unsigned by, unsigned bz, size_t shared, uint64_t *slots,
                            const uint8_t *ends, int n);
size_t gad_host_kernels(char *buf, size_t n);
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/gadgen/gadgen/gpu/internal/launch"
)

// HostAvailable reports whether the host shim is compiled in (it needs cgo).
const HostAvailable = true

// Host returns a launcher that runs the kernels on the host: device
// memory is C heap memory, and a launch runs the kernel's threads as
// fibers on the calling thread (hostshim.h). Its Props keep blocks
// small (at most 256 threads) and grids short (2 "SMs").
func Host() launch.Launcher { return &host{names: map[string]*C.char{}} }

type host struct {
	mu    sync.Mutex
	names map[string]*C.char // C copies of kernel names
}

func (h *host) Name() string { return "host shim (kernels compiled as C++, threads as fibers)" }

func (h *host) Props() launch.Props {
	return launch.Props{MaxThreadsPerBlock: 256, MultiProcessors: 2}
}

func (h *host) Alloc(bytes int) (launch.Ptr, error) {
	if bytes <= 0 {
		return 0, fmt.Errorf("host shim: Alloc(%d)", bytes)
	}
	p := C.aligned_alloc(256, C.size_t((bytes+255)&^255))
	if p == nil {
		return 0, errors.New("host shim: out of memory")
	}
	return launch.Ptr(uintptr(p)), nil
}

func (h *host) Free(p launch.Ptr) error {
	C.free(ptr(p))
	return nil
}

func (h *host) HtoD(dst launch.Ptr, src unsafe.Pointer, bytes int) error {
	C.memcpy(ptr(dst), src, C.size_t(bytes))
	return nil
}

func (h *host) DtoH(dst unsafe.Pointer, src launch.Ptr, bytes int) error {
	C.memcpy(dst, ptr(src), C.size_t(bytes))
	return nil
}

func (h *host) Launch(kernel string, grid, block launch.Dim3, shared int, a *launch.Args) error {
	h.mu.Lock()
	name, ok := h.names[kernel]
	if !ok {
		name = C.CString(kernel)
		h.names[kernel] = name
	}
	h.mu.Unlock()
	one := func(x uint32) C.uint { return C.uint(max(x, 1)) }
	msg := C.gad_host_launch(name, one(grid.X), one(grid.Y), one(grid.Z), one(block.X), one(block.Y), one(block.Z),
		C.size_t(shared), (*C.uint64_t)(unsafe.Pointer(&a.Slots[0])), (*C.uint8_t)(unsafe.Pointer(&a.End[0])), C.int(a.N))
	if msg != nil {
		return errors.New("host shim: " + C.GoString(msg))
	}
	return nil
}

func (h *host) Sync() error { return nil }

// Kernels returns the names of the kernels compiled into the host shim,
// sorted.
func Kernels() []string {
	n := C.gad_host_kernels(nil, 0)
	buf := make([]byte, n+1)
	C.gad_host_kernels((*C.char)(unsafe.Pointer(&buf[0])), n+1)
	return strings.Fields(string(buf[:n]))
}

// ptr converts a host-shim device address, which is a C heap address,
// back to a pointer.
func ptr(p launch.Ptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}
