//go:build cgo

package gpu

import "testing"

// TestHostPoolGatherExact runs poolGatherExact through the host shim.
func TestHostPoolGatherExact(t *testing.T) { poolGatherExact(t, hostDevice(t)) }
