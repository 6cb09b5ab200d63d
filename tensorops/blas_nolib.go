//go:build !((linux || darwin) && (amd64 || arm64) && !android && !ios)

package tensorops

import "errors"

// loadLibBLAS reports that no C BLAS can be loaded on this platform without
// cgo: the gonum backend is used.
func loadLibBLAS() (blasImpl, error) {
	return nil, errors.New("loading a C BLAS is not supported on this platform")
}
