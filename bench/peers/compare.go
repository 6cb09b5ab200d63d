package peers

import "math"

// A Diff is how far one result is from another: the relative difference
// of the losses, |a − b|/|b|, and for the gradient the largest over the
// six arrays of the normwise relative difference max_i |a_i − b_i| /
// max_i |b_i| (elementwise relative differences would blow up on entries
// that are zero up to rounding).
type Diff struct {
	Loss float64
	Grad float64
	// Worst names the parameter array where Grad is reached.
	Worst string
}

// Max returns the larger of the two differences.
func (d Diff) Max() float64 { return max(d.Loss, d.Grad) }

// Compare returns the difference of (loss, g) from (refLoss, ref).
func Compare(loss float64, g Grads, refLoss float64, ref Grads) Diff {
	d := Diff{Loss: relDiff(loss, refLoss)}
	for i := range ref {
		var num, den float64
		if len(g[i]) != len(ref[i]) {
			num = math.Inf(1)
		} else {
			for j, r := range ref[i] {
				num = max(num, math.Abs(g[i][j]-r))
				den = max(den, math.Abs(r))
			}
		}
		rel := num / den
		if den == 0 {
			rel = num
		}
		if math.IsNaN(rel) || rel > d.Grad || d.Worst == "" {
			d.Grad, d.Worst = rel, ParamNames[i]
		}
	}
	return d
}

func relDiff(a, b float64) float64 {
	if b == 0 {
		return math.Abs(a)
	}
	return math.Abs(a-b) / math.Abs(b)
}

// Tolerance is the largest Diff.Max accepted from a contender computing in
// d, against the float64 reference (and between two contenders in d). The
// contenders of the README's run are within 2e-15 in float64 and 6e-7 in
// float32.
func Tolerance(d DType) float64 {
	if d == Float32 {
		return 1e-5
	}
	return 1e-12
}
