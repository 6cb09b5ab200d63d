package emit

import (
	"reflect"
	"testing"

	"github.com/gadgen/gadgen/ir"
)

// TestCloneFields fails when the IR's types gain fields, which cloneFunc
// must then copy.
func TestCloneFields(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[ir.Func](), 11},
		{reflect.TypeFor[ir.Block](), 6},
		{reflect.TypeFor[ir.Value](), 13},
	} {
		if got := c.typ.NumField(); got != c.want {
			t.Errorf("%s has %d fields, want %d: update cloneFunc (literals.go) and this test", c.typ, got, c.want)
		}
	}
}
