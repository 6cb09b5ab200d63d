//go:build linux && (amd64 || arm64)

package gpu

// This file binds the CUDA driver API (libcuda.so.1) at run time with
// purego: no cgo and no CUDA toolkit at build time, like tensorops'
// OpenBLAS binding. The library is loaded at the first call that needs
// it (Available, or the first op on a device), never in init.

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gadgen/gadgen/gpu/internal/launch"
)

// cu is the bound driver API. The names are the driver's, with the _v2
// suffix of cuda.h's #defines where the library has one.
type cu struct {
	init               func(flags uint32) int32
	driverGetVersion   func(v *int32) int32
	deviceGetCount     func(n *int32) int32
	deviceGet          func(d *int32, ordinal int32) int32
	deviceGetName      func(name *byte, n int32, d int32) int32
	deviceGetAttribute func(v *int32, attr int32, d int32) int32
	primaryCtxRetain   func(ctx *uintptr, d int32) int32
	ctxSetCurrent      func(ctx uintptr) int32
	moduleLoadData     func(mod *uintptr, image *byte) int32
	moduleGetFunction  func(f *uintptr, mod uintptr, name string) int32
	streamCreate       func(s *uintptr, flags uint32) int32
	streamSynchronize  func(s uintptr) int32
	memAlloc           func(p *uint64, bytes uint64) int32
	memFree            func(p uint64) int32
	memcpyHtoDAsync    func(dst uint64, src unsafe.Pointer, n uint64, s uintptr) int32
	memcpyDtoHAsync    func(dst unsafe.Pointer, src uint64, n uint64, s uintptr) int32
	getErrorName       func(code int32, s **byte) int32
	launchKernel       uintptr // cuLaunchKernel, called with purego.SyscallN (11 integer arguments)
}

var driver struct {
	once  sync.Once
	api   *cu
	count int
	err   error
}

// libcudaNames are the driver libraries tried, in order.
var libcudaNames = []string{"libcuda.so.1", "libcuda.so"}

// loadDriver loads and initializes the driver once.
func loadDriver() (*cu, int, error) {
	driver.once.Do(func() {
		driver.api, driver.count, driver.err = bindDriver()
	})
	return driver.api, driver.count, driver.err
}

func driverCount() (int, error) {
	_, n, err := loadDriver()
	return n, err
}

func bindDriver() (*cu, int, error) {
	var lib uintptr
	var errs []string
	for _, name := range libcudaNames {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			lib = h
			break
		}
		errs = append(errs, err.Error())
	}
	if lib == 0 {
		return nil, 0, fmt.Errorf("%w: %s", ErrNoDriver, strings.Join(errs, "; "))
	}
	api := new(cu)
	bind := func(fptr any, name string) error {
		sym, err := purego.Dlsym(lib, name)
		if err != nil {
			return fmt.Errorf("%w: libcuda has no %s: %v", ErrNoDriver, name, err)
		}
		if fptr == nil {
			api.launchKernel = sym
			return nil
		}
		purego.RegisterFunc(fptr, sym)
		return nil
	}
	for _, b := range []struct {
		f    any
		name string
	}{
		{&api.init, "cuInit"},
		{&api.driverGetVersion, "cuDriverGetVersion"},
		{&api.deviceGetCount, "cuDeviceGetCount"},
		{&api.deviceGet, "cuDeviceGet"},
		{&api.deviceGetName, "cuDeviceGetName"},
		{&api.deviceGetAttribute, "cuDeviceGetAttribute"},
		{&api.primaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&api.ctxSetCurrent, "cuCtxSetCurrent"},
		{&api.moduleLoadData, "cuModuleLoadData"},
		{&api.moduleGetFunction, "cuModuleGetFunction"},
		{&api.streamCreate, "cuStreamCreate"},
		{&api.streamSynchronize, "cuStreamSynchronize"},
		{&api.memAlloc, "cuMemAlloc_v2"},
		{&api.memFree, "cuMemFree_v2"},
		{&api.memcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
		{&api.memcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
		{&api.getErrorName, "cuGetErrorName"},
		{nil, "cuLaunchKernel"},
	} {
		if err := bind(b.f, b.name); err != nil {
			return nil, 0, err
		}
	}
	if r := api.init(0); r != 0 {
		if r == cudaErrorNoDevice {
			return nil, 0, fmt.Errorf("%w: cuInit: %s", ErrNoDevice, api.errName(r))
		}
		return nil, 0, fmt.Errorf("%w: cuInit: %s", ErrNoDriver, api.errName(r))
	}
	var n int32
	if r := api.deviceGetCount(&n); r != 0 {
		return nil, 0, fmt.Errorf("%w: cuDeviceGetCount: %s", ErrNoDevice, api.errName(r))
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("%w: the driver reports no device", ErrNoDevice)
	}
	return api, int(n), nil
}

const (
	cudaErrorNoDevice      = 100
	attrMaxThreadsPerBlock = 1
	attrMultiProcessors    = 16
	attrCCMajor            = 75
	attrCCMinor            = 76
	streamNonBlocking      = 1
)

// errName returns the driver's name of result r.
func (api *cu) errName(r int32) string {
	var s *byte
	if api.getErrorName(r, &s) != 0 || s == nil {
		return fmt.Sprintf("CUresult %d", r)
	}
	var b []byte
	for p := s; *p != 0; p = (*byte)(unsafe.Add(unsafe.Pointer(p), 1)) {
		b = append(b, *p)
	}
	return fmt.Sprintf("%s (%d)", b, r)
}

// cudaLauncher runs kernels on one GPU through the driver: its primary
// context, one non-blocking stream, and the module loaded from the
// embedded PTX.
type cudaLauncher struct {
	api    *cu
	mu     sync.Mutex // serializes driver calls (and guards fns, params)
	ctx    uintptr
	stream uintptr
	mod    uintptr
	fns    map[string]uintptr
	name   string
	props  launch.Props
	params *[launch.MaxParams]uintptr // pinned for the launcher's life
	pin    runtime.Pinner
}

// call runs f with the context current on a locked OS thread, holding
// l.mu, and turns a failing CUresult into an error naming what.
func (l *cudaLauncher) call(what string, f func() int32) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if l.ctx != 0 {
		if r := l.api.ctxSetCurrent(l.ctx); r != 0 {
			return fmt.Errorf("gpu: cuCtxSetCurrent: %s", l.api.errName(r))
		}
	}
	if r := f(); r != 0 {
		return fmt.Errorf("gpu: %s: %s", what, l.api.errName(r))
	}
	return nil
}

func openDriver(id int) (launch.Launcher, error) {
	api, n, err := loadDriver()
	if err != nil {
		return nil, err
	}
	if id < 0 || id >= n {
		return nil, fmt.Errorf("%w: cuda:%d (the driver reports %d devices)", ErrNoDevice, id, n)
	}
	l := &cudaLauncher{api: api, fns: map[string]uintptr{}, params: new([launch.MaxParams]uintptr)}
	l.pin.Pin(l.params)
	var dev int32
	var name [256]byte
	var maxThreads, sms, ccMajor, ccMinor int32
	steps := []struct {
		what string
		f    func() int32
	}{
		{"cuDeviceGet", func() int32 { return api.deviceGet(&dev, int32(id)) }},
		{"cuDevicePrimaryCtxRetain", func() int32 { return api.primaryCtxRetain(&l.ctx, dev) }},
		{"cuCtxSetCurrent", func() int32 { return api.ctxSetCurrent(l.ctx) }},
		{"cuDeviceGetName", func() int32 { return api.deviceGetName(&name[0], int32(len(name)-1), dev) }},
		{"cuDeviceGetAttribute", func() int32 { return api.deviceGetAttribute(&maxThreads, attrMaxThreadsPerBlock, dev) }},
		{"cuDeviceGetAttribute", func() int32 { return api.deviceGetAttribute(&sms, attrMultiProcessors, dev) }},
		{"cuDeviceGetAttribute", func() int32 { return api.deviceGetAttribute(&ccMajor, attrCCMajor, dev) }},
		{"cuDeviceGetAttribute", func() int32 { return api.deviceGetAttribute(&ccMinor, attrCCMinor, dev) }},
		{"cuStreamCreate", func() int32 { return api.streamCreate(&l.stream, streamNonBlocking) }},
		{"cuModuleLoadData", func() int32 {
			img := append([]byte(ptxSM80), 0)
			return api.moduleLoadData(&l.mod, &img[0])
		}},
	}
	for _, s := range steps {
		if err := l.call(s.what, s.f); err != nil {
			return nil, err
		}
	}
	n0 := 0
	for n0 < len(name) && name[n0] != 0 {
		n0++
	}
	l.name = fmt.Sprintf("%s (sm_%d%d)", name[:n0], ccMajor, ccMinor)
	l.props = launch.Props{MaxThreadsPerBlock: int(maxThreads), MultiProcessors: int(sms)}
	return l, nil
}

func (l *cudaLauncher) Name() string        { return l.name }
func (l *cudaLauncher) Props() launch.Props { return l.props }

func (l *cudaLauncher) Alloc(bytes int) (launch.Ptr, error) {
	var p uint64
	err := l.call("cuMemAlloc", func() int32 { return l.api.memAlloc(&p, uint64(bytes)) })
	return launch.Ptr(p), err
}

func (l *cudaLauncher) Free(p launch.Ptr) error {
	return l.call("cuMemFree", func() int32 { return l.api.memFree(uint64(p)) })
}

// HtoD copies from pageable memory: the driver returns once src is
// staged, so src may be reused.
func (l *cudaLauncher) HtoD(dst launch.Ptr, src unsafe.Pointer, bytes int) error {
	return l.call("cuMemcpyHtoDAsync", func() int32 {
		return l.api.memcpyHtoDAsync(uint64(dst), src, uint64(bytes), l.stream)
	})
}

func (l *cudaLauncher) DtoH(dst unsafe.Pointer, src launch.Ptr, bytes int) error {
	return l.call("cuMemcpyDtoHAsync", func() int32 {
		if r := l.api.memcpyDtoHAsync(dst, uint64(src), uint64(bytes), l.stream); r != 0 {
			return r
		}
		return l.api.streamSynchronize(l.stream)
	})
}

func (l *cudaLauncher) Sync() error {
	return l.call("cuStreamSynchronize", func() int32 { return l.api.streamSynchronize(l.stream) })
}

func (l *cudaLauncher) Launch(kernel string, grid, block launch.Dim3, shared int, a *launch.Args) error {
	var pin runtime.Pinner
	pin.Pin(a)
	defer pin.Unpin()
	return l.call("cuLaunchKernel "+kernel, func() int32 {
		f, ok := l.fns[kernel]
		if !ok {
			if r := l.api.moduleGetFunction(&f, l.mod, kernel); r != 0 {
				return r
			}
			l.fns[kernel] = f
		}
		for i := 0; i < a.N; i++ {
			l.params[i] = uintptr(unsafe.Pointer(&a.Slots[a.Start(i)]))
		}
		one := func(x uint32) uintptr { return uintptr(max(x, 1)) }
		r, _, _ := purego.SyscallN(l.api.launchKernel, f,
			one(grid.X), one(grid.Y), one(grid.Z), one(block.X), one(block.Y), one(block.Z),
			uintptr(shared), l.stream, uintptr(unsafe.Pointer(&l.params[0])), 0)
		return int32(r)
	})
}
