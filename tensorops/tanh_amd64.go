package tensorops

import "golang.org/x/sys/cpu"

// hasAVX2 says whether the tanh loops of tanh_amd64.s (AVX2, and FMA for
// float64's) may run; a variable, so that tests can take the scalar path
// too.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// tanh64x4 and tanh32x8 are in tanh_amd64.s: d[i] = tanh a[i] for i < n,
// n a positive multiple of 4 or 8.
//
//go:noescape
func tanh64x4(d, a *float64, n int)

//go:noescape
func tanh32x8(d, a *float32, n int)

// tanhVec64 computes the leading multiple of 4 elements with AVX2 where
// the CPU has it, and returns how many it computed.
func tanhVec64(d, a []float64) int { return tanhVec(d, a, 4, tanh64x4) }

// tanhVec32 is tanhVec64 for float32, 8 elements at a time.
func tanhVec32(d, a []float32) int { return tanhVec(d, a, 8, tanh32x8) }

// tanhVec runs kernel, lanes elements at a time, on the leading multiple
// of lanes (a power of two) elements of a, where the CPU has AVX2, and
// returns how many it computed.
func tanhVec[T Float](d, a []T, lanes int, kernel func(d, a *T, n int)) int {
	n := len(a) &^ (lanes - 1)
	if !hasAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	kernel(&d[0], &a[0], n)
	return n
}
