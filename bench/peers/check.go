package peers

import (
	"fmt"
	"math"
)

// A Checked is a contender's result on a problem, as Check found it.
type Checked struct {
	Loss float64 // from Grad
	Grad Grads
	Diff Diff // from the float64 reference
}

// Check verifies c, set up on p, against the reference result (refLoss,
// ref): Loss and Grad must return the same loss, a second Grad must return
// the same gradient as the first (no accumulation across calls), and the
// loss and the gradient must be within Tolerance(d) of the reference.
func Check(c Contender, d DType, refLoss float64, ref Grads) (Checked, error) {
	tol := Tolerance(d)
	loss := c.Loss()
	r := Checked{Loss: c.Grad(), Grad: c.Gradient()}
	r.Diff = Compare(r.Loss, r.Grad, refLoss, ref)
	r.Diff.Loss = max(r.Diff.Loss, relDiff(loss, refLoss))
	if math.IsNaN(r.Diff.Max()) || r.Diff.Max() > tol {
		return r, fmt.Errorf("%s %s disagrees with the reference: loss %.3g, gradient %.3g (%s), tolerance %.0e",
			c.Name(), d, r.Diff.Loss, r.Diff.Grad, r.Diff.Worst, tol)
	}
	again := c.Grad()
	if dd := Compare(again, c.Gradient(), r.Loss, r.Grad); !(dd.Max() <= tol) {
		return r, fmt.Errorf("%s %s: a second Grad differs from the first by %.3g (%s): gradients accumulate?",
			c.Name(), d, dd.Max(), dd.Worst)
	}
	return r, nil
}
