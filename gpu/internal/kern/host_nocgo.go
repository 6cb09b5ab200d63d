//go:build !cgo

package kern

import "github.com/gadgen/gadgen/gpu/internal/launch"

// HostAvailable reports whether the host shim is compiled in (it needs cgo).
const HostAvailable = false

// Host returns nil without cgo: the host shim is C++.
func Host() launch.Launcher { return nil }

// Kernels returns nil without cgo.
func Kernels() []string { return nil }
