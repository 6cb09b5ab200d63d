package calls

import (
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

// TestFreshSlice: a helper's slice of constants has a zero tangent of
// its length, which the caller indexes; against central differences.
func TestFreshSlice(t *testing.T) {
	gadtest.JVP(t, FreshSlice, FreshSliceJVP, gadtest.Dim(4))
	gadtest.Grad(t, FreshSlice, FreshSliceGrad, gadtest.Dim(4))
}
