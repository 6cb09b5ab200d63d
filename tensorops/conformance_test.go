package tensorops_test

import (
	"os"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
	"github.com/gadgen/gadgen/tensorops/conformance"
)

func TestMain(m *testing.M) {
	// Choose the backend now, so that the output names it first (not in
	// the child processes of TestLazyBLAS, which check the lazy loading).
	if os.Getenv("TENSOROPS_CHILD") == "" {
		println("tensorops: BLAS backend:", tensorops.BLAS(), "threads:", tensorops.Threads())
	}
	os.Exit(m.Run())
}

// backend returns the conformance backend that selects BLAS library name
// and n threads for the duration of the suite.
func backend(name string, threads, grain int) conformance.Backend {
	return conformance.Backend{
		Name: name,
		Setup: func(t *testing.T) func() {
			prev := tensorops.BLAS()
			// The OpenBLAS rows need the library: CI installs it where it runs as
			// root with apt-get (.ci/run); the gonum rows run everywhere.
			if err := tensorops.SetBLAS(name); err != nil {
				t.Skipf("BLAS %q not available: %v", name, err)
			}
			tensorops.SetThreads(threads)
			restore := func() {}
			if grain > 0 {
				restore = tensorops.SetGrainsForTest(grain, grain)
			}
			t.Logf("BLAS %s, %d threads", tensorops.BLAS(), tensorops.Threads())
			return func() {
				restore()
				tensorops.SetThreads(0)
				if prev == "gonum (pure Go)" {
					tensorops.SetBLAS("gonum")
				} else {
					tensorops.SetBLAS("openblas")
				}
			}
		},
	}
}

func TestConformance(t *testing.T) {
	// The default grains split only the suite's largest tensors; grain 64
	// splits nearly all of them, in uneven parts with 3 threads.
	for _, tc := range []struct {
		name           string
		blas           string
		threads, grain int
	}{
		{"gonum/1thread", "gonum", 1, 0},
		{"gonum/3threads/grain64", "gonum", 3, 64},
		{"openblas/1thread", "openblas", 1, 0},
		{"openblas/2threads", "openblas", 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conformance.Run(t, backend(tc.blas, tc.threads, tc.grain))
		})
	}
}
