//go:build (linux || darwin) && (amd64 || arm64) && !android && !ios

package tensorops

import "testing"

// TestOpenBLASThreads checks that SetThreads reaches OpenBLAS.
func TestOpenBLASThreads(t *testing.T) {
	impl, err := loadCBLAS()
	// Without a C BLAS there are no OpenBLAS threads to set. CI installs
	// OpenBLAS where it runs as root with apt-get (.ci/run) and runs this.
	if err != nil {
		t.Skipf("no C BLAS loaded (%v): nothing to check", err)
	}
	c := impl.(*cBLAS)
	// Another C BLAS has no thread setting to check.
	if !c.openblas || c.getThreadn == 0 {
		t.Skipf("%s is not OpenBLAS: nothing to check", c.name())
	}
	defer SetThreads(0)
	for _, n := range []int{1, 2, 1} {
		SetThreads(n)
		if got := c.threads(); got != n {
			t.Errorf("SetThreads(%d): OpenBLAS has %d threads", n, got)
		}
	}
}
