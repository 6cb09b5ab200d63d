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
func backend(name string, threads int) conformance.Backend {
	return conformance.Backend{
		Name: name,
		Setup: func(t *testing.T) func() {
			prev := tensorops.BLAS()
			if err := tensorops.SetBLAS(name); err != nil {
				t.Skipf("BLAS %q not available: %v", name, err)
			}
			tensorops.SetThreads(threads)
			t.Logf("BLAS %s, %d threads", tensorops.BLAS(), tensorops.Threads())
			return func() {
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
	for _, tc := range []struct {
		name    string
		blas    string
		threads int
	}{
		{"gonum/1thread", "gonum", 1},
		{"gonum/4threads", "gonum", 4},
		{"openblas/1thread", "openblas", 1},
		{"openblas/2threads", "openblas", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conformance.Run(t, backend(tc.blas, tc.threads))
		})
	}
}
