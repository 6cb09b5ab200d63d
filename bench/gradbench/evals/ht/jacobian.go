package ht

// nTheta is the number of pose parameters θ, and minBones the number of
// bones that poseParams fills (ADBench's hand has 22).
const (
	nTheta   = 26
	minBones = 21
)

// lanes is the number of directions ObjectiveTaylor carries per call.
const lanes = 14

// A Jacobian computes the Jacobian of Objective with respect to θ and us
// for one problem: one row per error, 3 per point, and one column per
// parameter of θ, after two columns for us in the complicated variant —
// the derivatives with respect to us[2i] and us[2i+1] of point i's
// errors, which depend on no other point's us (GradBench's layout,
// ADBench's). It takes them, 14 at a time, from ObjectiveTaylor along
// the unit directions of θ and the directions (1, 0, 1, 0, …) and
// (0, 1, 0, 1, …) of us.
type Jacobian struct {
	p           *Problem
	nrows, cols int
	// J holds the Jacobian column by column; pad receives the columns
	// of the lanes past the last.
	J, pad, res []float64
	// dtheta and dus are the directions of the lanes.
	dtheta, dus [lanes][]float64
}

// NewJacobian returns the Jacobian of p, not computed yet.
func NewJacobian(p *Problem) *Jacobian {
	nrows := 3 * len(p.Data.Points)
	cols := nTheta
	if len(p.Us) > 0 {
		cols += 2
	}
	j := &Jacobian{p: p, nrows: nrows, cols: cols,
		J: make([]float64, nrows*cols), pad: make([]float64, nrows), res: make([]float64, nrows)}
	for l := range lanes {
		j.dtheta[l], j.dus[l] = make([]float64, nTheta), make([]float64, len(p.Us))
	}
	return j
}

// Compute computes the Jacobian into J.
func (j *Jacobian) Compute() {
	var dres [lanes][]float64
	for first := 0; first < j.cols; first += lanes {
		for l := range lanes {
			clear(j.dtheta[l])
			clear(j.dus[l])
			col := first + l
			dres[l] = j.pad
			if col < j.cols {
				dres[l] = j.J[col*j.nrows : (col+1)*j.nrows]
				j.seed(l, col)
			}
		}
		t, u := &j.dtheta, &j.dus
		ObjectiveTaylor(j.p.Theta, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13],
			j.p.Us, u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
			&j.p.Data, j.res,
			dres[0], dres[1], dres[2], dres[3], dres[4], dres[5], dres[6], dres[7], dres[8], dres[9], dres[10], dres[11], dres[12], dres[13])
	}
}

// seed sets lane l's direction to that of column col.
func (j *Jacobian) seed(l, col int) {
	if len(j.p.Us) == 0 {
		j.dtheta[l][col] = 1
		return
	}
	if col >= 2 {
		j.dtheta[l][col-2] = 1
		return
	}
	for i := col; i < len(j.dus[l]); i += 2 {
		j.dus[l][i] = 1
	}
}

// Rows returns the Jacobian row by row.
func (j *Jacobian) Rows() [][]float64 {
	out := make([][]float64, j.nrows)
	for r := range out {
		out[r] = make([]float64, j.cols)
		for c := range out[r] {
			out[r][c] = j.J[c*j.nrows+r]
		}
	}
	return out
}
