package tensorops

// SetGrainsForTest sets the parallel grains (elements below which kernels
// run on one goroutine) and returns a function that restores them, so that
// tests can split small tensors.
func SetGrainsForTest(cheap, math int) (restore func()) {
	c, m := grainCheap, grainMath
	grainCheap, grainMath = cheap, math
	return func() { grainCheap, grainMath = c, m }
}
