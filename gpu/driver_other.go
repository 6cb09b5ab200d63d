//go:build !(linux && (amd64 || arm64))

package gpu

import (
	"fmt"
	"runtime"

	"github.com/gadgen/gadgen/gpu/internal/launch"
)

func driverCount() (int, error) {
	return 0, fmt.Errorf("%w: loading libcuda is not supported on %s/%s", ErrNoDriver, runtime.GOOS, runtime.GOARCH)
}

func openDriver(id int) (launch.Launcher, error) {
	_, err := driverCount()
	return nil, err
}
