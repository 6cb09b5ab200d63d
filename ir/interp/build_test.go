package interp_test

// This file defines the types, package and checks shared by the tests of
// package interp, which build their IR with irtest.Builder.

import (
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/ir"
)

var (
	tFloat64 = types.Typ[types.Float64]
	tFloat32 = types.Typ[types.Float32]
	tInt     = types.Typ[types.Int]
	tBool    = types.Typ[types.Bool]
	tString  = types.Typ[types.String]
	pkg      = types.NewPackage("example.com/p", "p")
)

// checked returns f after checking it with ir.Check.
func checked(t testing.TB, f *ir.Func) *ir.Func {
	t.Helper()
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	return f
}
