//go:build linux && (amd64 || arm64)

package gpu

// This file binds cuBLAS (libcublas) at run time with purego, as
// driver.go binds the driver: no cgo and no CUDA toolkit at build time.
// It is loaded at the first GEMM on a GPU (after the driver), never in
// init, and is optional: without it GEMM runs on the tiled kernel.

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/ebitengine/purego"
)

// libcublasNames are the cuBLAS libraries tried, in order: CUDA 13, 12
// and 11 (libcublas.so.11 is Debian 12's, from non-free), then the
// unversioned name of a toolkit install.
var libcublasNames = []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"}

// bindCublas loads libcublas and binds the functions of cublasAPI.
func bindCublas() (*cublasAPI, error) {
	var lib uintptr
	var errs []string
	api := new(cublasAPI)
	for _, name := range libcublasNames {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			lib, api.lib = h, name
			break
		}
		errs = append(errs, err.Error())
	}
	if lib == 0 {
		return nil, fmt.Errorf("no libcublas: %s", strings.Join(errs, "; "))
	}
	for _, b := range []struct {
		f    any
		name string
	}{
		{&api.create, "cublasCreate_v2"},
		{&api.destroy, "cublasDestroy_v2"},
		{&api.setStream, "cublasSetStream_v2"},
		{&api.dgemm, "cublasDgemm_v2"},
		{&api.sgemm, "cublasSgemm_v2"},
	} {
		// purego.RegisterLibFunc panics on a missing symbol: look it up first.
		sym, err := purego.Dlsym(lib, b.name)
		if err != nil {
			return nil, fmt.Errorf("%s has no %s: %v", api.lib, b.name, err)
		}
		purego.RegisterFunc(b.f, sym)
	}
	return api, nil
}

// withContext implements blasRunner: f runs as the launcher's driver
// calls do (holding its lock, on a locked OS thread with the context
// current), with the launcher's stream.
func (l *cudaLauncher) withContext(f func(stream uintptr) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if r := l.api.ctxSetCurrent(l.ctx); r != 0 {
		return fmt.Errorf("gpu: cuCtxSetCurrent: %s", l.api.errName(r))
	}
	return f(l.stream)
}
