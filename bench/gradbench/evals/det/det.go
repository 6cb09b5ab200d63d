// Package det is GradBench's det eval: the determinant of an ℓ×ℓ matrix by
// expansion by minors, written recursively as GradBench's reference (after
// cmpad's det_by_minor) writes it, and its gradient by gadgen's reverse
// mode through the recursion.
package det

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

// Det returns the determinant of the ell×ell matrix a (row-major) by
// expansion by minors along the first row, recursively.
//
//gad:grad wrt=a
func Det(a []float64, ell int) float64 {
	// r[i] is the row that follows row i in the current minor, c[i] the
	// column that follows column i; r[ell] and c[ell] are the first.
	r := make([]int, ell+1)
	c := make([]int, ell+1)
	for i := 0; i < ell; i++ {
		r[i] = i + 1
		c[i] = i + 1
	}
	return minor(a, ell, ell, r, c)
}

// minor returns the determinant of the m×m minor of the n×n matrix a whose
// rows and columns are linked in r and c from r[n] and c[n]. It removes
// rows and columns by relinking r and c and restores them before it
// returns.
func minor(a []float64, n, m int, r, c []int) float64 {
	r0 := r[n]
	cj := c[n]
	if m == 1 {
		return a[r0*n+cj]
	}
	det := 0.0
	sign := 1.0
	// Remove the minor's first row from every sub-minor.
	r[n] = r[r0]
	// cPrev is the link that points at column cj.
	cPrev := n
	for j := 0; j < m; j++ {
		// Remove column cj, expand along a[r0, cj], restore the column.
		c[cPrev] = c[cj]
		det += sign * a[r0*n+cj] * minor(a, n, m-1, r, c)
		c[cPrev] = cj
		cPrev = cj
		cj = c[cj]
		sign = -sign
	}
	r[n] = r0
	return det
}
