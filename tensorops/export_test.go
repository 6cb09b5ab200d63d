package tensorops

// SetGrainsForTest sets the parallel grains (the reductions' to cheap) (elements below which kernels
// run on one goroutine) and returns a function that restores them, so that
// tests can split small tensors.
func SetGrainsForTest(cheap, math int) (restore func()) {
	c, m, r := grainCheap, grainMath, grainReduce
	grainCheap, grainMath, grainReduce = cheap, math, cheap
	return func() { grainCheap, grainMath, grainReduce = c, m, r }
}
