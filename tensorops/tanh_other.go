//go:build !amd64

package tensorops

// Without amd64's AVX2 loops, tanh64Slice and tanh32Slice compute every
// element by the scalar functions.

var hasAVX2 = false

func tanhVec64(d, a []float64) int { return 0 }

func tanhVec32(d, a []float32) int { return 0 }
