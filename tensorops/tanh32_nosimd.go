//go:build !(goexperiment.simd && amd64)

package tensorops

// tanh32Slice sets d[i] = tanh32(a[i]); len(d) == len(a). With
// GOEXPERIMENT=simd on amd64, tanh32_simd.go computes eight at a time.
func tanh32Slice(d, a []float32) {
	for i := range a {
		d[i] = tanh32(a[i])
	}
}
