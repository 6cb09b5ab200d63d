package gpu

import "errors"

// The errors Available and the device operations report, matchable with
// errors.Is; the returned errors wrap them with the detail (the library
// that failed to load, the driver's error name).
var (
	// ErrNoDriver: the CUDA driver library (libcuda.so.1) could not be
	// loaded, or this platform cannot load it (only linux/amd64 and
	// linux/arm64 can).
	ErrNoDriver = errors.New("gpu: no CUDA driver")

	// ErrNoDevice: the driver loaded but reports no usable GPU
	// (CUDA_ERROR_NO_DEVICE), or the device ID is out of range.
	ErrNoDevice = errors.New("gpu: no CUDA device")
)
