package reversal

import (
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Chain", F: fdcheck.Binary(Chain), JVP: fdcheck.BinaryJVP(ChainJVP), Gen: fdcheck.Box(2, -2, 2)},
		{Name: "Once", F: fdcheck.ScalarField(Once), JVP: fdcheck.ScalarFieldJVP(OnceJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "InLoop", F: fdcheck.ScalarField(InLoop), JVP: fdcheck.ScalarFieldJVP(InLoopJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Recursive", F: fdcheck.Unary(Recursive), JVP: fdcheck.UnaryJVP(RecursiveJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "Method", F: fdcheck.ScalarField(Method), JVP: fdcheck.ScalarFieldJVP(MethodJVP), Gen: fdcheck.Box(5, -2, 2)},
	})
}
