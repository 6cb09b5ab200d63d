package simplify

import "testing"

// TestFillFoldNames checks that each function that fold-fill evaluates
// is elementwise in one tensor operand, its other arguments float64s, by
// the facts of package templates (templates.TensorOp, which
// templates.TestTensorOps checks against the runtime's signatures): a
// renamed or removed runtime function fails here instead of silently
// disabling the rewrite.
func TestFillFoldNames(t *testing.T) {
	for name := range fillFolds {
		if _, ok := elementwiseIn(name); !ok {
			t.Errorf("fillFolds has %s, which templates.TensorOpOf does not give as elementwise in one tensor operand", name)
		}
	}
}
