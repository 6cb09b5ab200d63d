package cases

import "math"

// Cholesky factors the lower triangle of a, an n×n matrix by rows, made
// diagonally dominant first, in place: each element is stored once and
// loaded many times, so the reverse restores the memory it overwrites.
func Cholesky(a []float64, n int) float64 {
	for j := range n {
		a[j*n+j] += float64(n)
	}
	for j := 0; j < n; j++ {
		d := a[j*n+j]
		for k := 0; k < j; k++ {
			d -= a[j*n+k] * a[j*n+k]
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := 0; k < j; k++ {
				s -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = s / d
		}
	}
	s := 0.0
	for j := range n {
		s += math.Log(a[j*n+j]) * a[(n-1)*n+j]
	}
	return s
}

// Gather appends slices to a slice of slices.
func Gather(x []float64) float64 {
	var rows [][]float64
	for i := 0; i+1 < len(x); i++ {
		rows = append(rows, x[i:i+2])
	}
	more := [][]float64{x[:1]}
	rows = append(rows, more...)
	s := 0.0
	for _, r := range rows {
		s += r[0] * r[len(r)-1] * float64(len(r))
	}
	return s
}

// Seg is a struct holding a slice.
type Seg struct {
	P []float64
	W float64
}

// Segs appends structs holding slices.
func Segs(x []float64, w float64) float64 {
	var segs []Seg
	for i := range x {
		segs = append(segs, Seg{P: x[i:], W: w * x[i]})
	}
	s := 0.0
	for _, g := range segs {
		s += g.P[0] * g.W * float64(len(g.P))
	}
	return s
}

// Aux steps two more indices with the loop's counter.
func Aux(x []float64) float64 {
	s := 0.0
	j := len(x) - 1
	k := 0
	for i := 0; i < len(x); i++ {
		s += x[i]*x[j]*math.Sin(s) + float64(k)*0.01
		j--
		k += 3
	}
	return s
}

// Inclusive loops with <= and with the bound on the left.
func Inclusive(x []float64, n int) float64 {
	s := 0.0
	for i := 1; i <= n; i++ {
		s += math.Cos(x[i%len(x)] * s)
	}
	for i := 0; len(x) > i; i++ {
		s *= x[i]
	}
	for i := len(x) - 1; i >= 0; i -= 2 {
		s += math.Sin(s * x[i])
	}
	return s
}

// Band nests a loop starting at the outer index.
func Band(x []float64) float64 {
	s := 0.0
	for i := range x {
		for j := i; j < len(x); j++ {
			s += math.Sin(x[i]*x[j] + s)
		}
	}
	return s
}

// Search leaves two loops at once.
func Search(x []float64) float64 {
	s := 0.0
outer:
	for i := range x {
		for j := range x {
			s += x[i]*x[j]*s + 0.1
			if s > 1.5 {
				break outer
			}
		}
	}
	return s
}

func lin(a, b float64) float64 { return 2*a + 3*b }

func linVJP(a, b, rBar float64) (float64, float64) { return 2 * rBar, 3 * rBar }

// UseLin calls a function the tests give a rule.
func UseLin(x, y float64) float64 { return lin(x*y, math.Sin(x)) * x }

func sumSquares2(a [][]float64) float64 {
	s := 0.0
	for _, r := range a {
		for _, v := range r {
			s += v * v
		}
	}
	return s
}

// Overwrite calls a function reading the rows of a slice of slices, then
// overwrites a row: the reverse restores the rows around the call.
func Overwrite(a [][]float64) float64 {
	s := sumSquares2(a)
	a[0][0] = a[0][0] * s
	return s + sumSquares2(a)*a[1][1]
}

func sumPoints(ps []*Point) float64 {
	s := 0.0
	for _, p := range ps {
		s += p.X * p.Y
	}
	return s
}

// PointPtrs calls a function reading points through a slice of pointers,
// then overwrites one.
func PointPtrs(x []float64) float64 {
	ps := []*Point{{x[0], x[1]}, {x[1], x[2]}}
	s := sumPoints(ps)
	ps[0].X *= s
	for k := range 2 {
		s += sumPoints(ps) * float64(k+1)
		ps[1].Y *= ps[0].X
	}
	return s
}

func trace(a []float64, n int) float64 {
	s := 0.0
	for j := range n {
		s += a[j*n+j] * a[j*n+j]
	}
	return s
}

// LUTrace factors a, an n×n matrix by rows made diagonally dominant,
// into LU in place, with a call reading the matrix at each step, whose
// memory the reverse restores.
func LUTrace(a []float64, n int) float64 {
	for j := range n {
		a[j*n+j] += float64(n)
	}
	t := 0.0
	for k := 0; k < n; k++ {
		t += trace(a, n) / float64(k+1)
		for i := k + 1; i < n; i++ {
			a[i*n+k] /= a[k*n+k]
			for j := k + 1; j < n; j++ {
				a[i*n+j] -= a[i*n+k] * a[k*n+j]
			}
		}
	}
	return t + a[n*n-1]*a[1]
}
