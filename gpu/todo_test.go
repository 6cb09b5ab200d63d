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
	// Unary elementwise ops needing device math (kern/unary_math.h,
	// devmath.h; ops_unary_math.go).
	"Log":       "no gad_log (unary_math.h)",
	"Tanh":      "no gad_tanh (unary_math.h)",
	"Sigmoid":   "no gad_sigmoid (unary_math.h)",
	"Sqrt":      "no gad_sqrt (unary_math.h)",
	"Sin":       "no gad_sin (unary_math.h)",
	"Cos":       "no gad_cos (unary_math.h)",
	"Log1p":     "no gad_log1p (unary_math.h)",
	"Expm1":     "no gad_expm1 (unary_math.h)",
	"PowScalar": "no gad_pow_scalar (unary_math.h, needs gad_pow)",

	// Unary elementwise ops without math (kern/unary.h; ops_unary.go).
	"ReLU":      "no gad_relu (unary.h)",
	"Abs":       "no gad_abs (unary.h)",
	"Square":    "no gad_square (unary.h)",
	"Sign":      "no gad_sign (unary.h)",
	"Step":      "no gad_step (unary.h)",
	"ScalarDiv": "no gad_scalar_div (unary.h)",

	// Binary elementwise ops (kern/binary.h; ops_binary.go). The fused
	// derivatives TanhGrad, SigmoidGrad and ReLUGrad have no suite entry
	// of their own: they run in "nil" and in the AD helpers' tests.
	"Pow":     "no gad_pow (binary.h, needs gad_pow in devmath.h)",
	"Maximum": "no gad_maximum (binary.h)",
	"Minimum": "no gad_minimum (binary.h)",

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
