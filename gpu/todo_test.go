package gpu

import (
	"os"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
	"github.com/gadgen/gadgen/tensorops/conformance"
)

// notOnDevice is the to-do list of the CUDA backend: the conformance
// suite's op names (tensorops/conformance: Backend.Skip) whose tests are
// skipped on the device, and why. Adding an op's kernel removes its line;
// the suite then runs it through the host shim (and on a GPU when there
// is one). To see whether an op passes before removing its line:
//
//	GAD_GPU_TRY=Transpose go test -run TestConformanceHost ./gpu
var notOnDevice = map[string]string{

	// Suites spanning many ops.
	"host": "views of Go slices and gonum matrices, At and Set: host-only by design",
}

// skipOnDevice is the conformance Backend.Skip of the device backends.
func skipOnDevice(op string) (string, bool) {
	if op == os.Getenv("GAD_GPU_TRY") {
		return "", false
	}
	why, ok := notOnDevice[op]
	return why, ok
}

// deviceBackend is the conformance backend of dev.
func deviceBackend(name string, dev T.Device) conformance.Backend {
	return conformance.Backend{
		Name:       name,
		ToDevice:   func(x *T.Tensor) *T.Tensor { return x.To(dev) },
		FromDevice: func(x *T.Tensor) *T.Tensor { return x.To(T.CPU) },
		Skip:       skipOnDevice,
	}
}

func conformanceRun(t *testing.T, b conformance.Backend) { conformance.Run(t, b) }
