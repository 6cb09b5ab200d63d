//go:build cgo

package gpu

import "testing"

// TestHostGenerated runs derivatives that gadgen generated, unchanged,
// on tensors on the device (kernels through the host shim) against the
// same on the CPU: see generatedOn.
func TestHostGenerated(t *testing.T) { generatedOn(t, hostDevice(t), 1e-12, 1e-5) }
