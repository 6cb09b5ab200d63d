//go:build !(linux && (amd64 || arm64))

package gpu

import (
	"fmt"
	"runtime"
)

func bindCublas() (*cublasAPI, error) {
	return nil, fmt.Errorf("loading libcublas is not supported on %s/%s", runtime.GOOS, runtime.GOARCH)
}
