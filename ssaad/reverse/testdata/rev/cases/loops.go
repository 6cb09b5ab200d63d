package cases

import "math"

// SumSquares is a counted loop.
func SumSquares(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x); i++ {
		s += x[i] * x[i]
	}
	return s
}

// Dot is an accumulation that the reverse fuses with the forward sweep.
func Dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// SumExp is a range loop over values.
func SumExp(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Exp(v)
	}
	return math.Log(s)
}

// Newton iterates to a data-dependent exit, with a break.
func Newton(a float64) float64 {
	x := a
	for i := 0; i < 50; i++ {
		step := (x*x - a) / (2 * x)
		x -= step
		if math.Abs(step) < 1e-13*x {
			break
		}
	}
	return x * x * x
}

// SkipNeg continues on data and breaks on data.
func SkipNeg(x []float64) float64 {
	s := 1.0
	for i := 0; i < len(x); i++ {
		if x[i] < 0 {
			continue
		}
		if x[i] > 1.9 {
			break
		}
		s = s*x[i] + math.Sin(s)
	}
	return s
}

// While loops on a float condition.
func While(x float64) float64 {
	y := x
	n := 0
	for y < 10 {
		y = y*1.5 + x
		n++
	}
	return y * float64(n)
}

// Horner evaluates a polynomial: a loop carrying a nonlinear value.
func Horner(c []float64, x float64) float64 {
	p := 0.0
	for i := len(c) - 1; i >= 0; i-- {
		p = p*x + c[i]
	}
	return p
}

// MatVec is two nested loops; the inner reads the outer index.
func MatVec(a [][]float64, x []float64) float64 {
	s := 0.0
	for i := range a {
		r := 0.0
		for j := range x {
			r += a[i][j] * x[j]
		}
		s += math.Tanh(r) * float64(i+1)
	}
	return s
}

// Triangle is a triangular nest.
func Triangle(x []float64) float64 {
	s := 0.0
	for i := 0; i < len(x); i++ {
		for j := 0; j < i; j++ {
			s += x[i] * math.Sin(x[j]*s)
		}
	}
	return s
}

// Strided steps by two, downwards counted loops and a loop on a count
// parameter.
func Strided(x []float64, n int) float64 {
	s := 0.0
	for i := 0; i < len(x); i += 2 {
		s += x[i] * x[i]
	}
	for i := len(x) - 1; i > 0; i-- {
		s = s*0.5 + x[i]*x[i-1]
	}
	for k := range n {
		s += math.Cos(s) * float64(k)
	}
	return s
}

// Product is a loop whose product is recomputed from the tape.
func Product(x []float64) float64 {
	p := 1.0
	for _, v := range x {
		p *= v
	}
	return p
}

// Nest3 nests three loops.
func Nest3(x []float64) float64 {
	s := 0.0
	for i := range 2 {
		for j := range x {
			t := x[j] * float64(i+1)
			for k := 0; k < j; k++ {
				t = t*x[k] + s
			}
			s += math.Sin(t)
		}
	}
	return s
}

// Norm returns a function of an accumulation.
func Norm(x []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * x[i]
	}
	return math.Sqrt(s) * s
}

// Weighted accumulates two sums, returned as a product with a value
// computed before the loop.
func Weighted(x []float64, w float64) float64 {
	a := w * w
	s, t := 0.0, 0.0
	for i := range x {
		s += x[i] * a
		t -= math.Sin(x[i]) * x[i]
	}
	return s*t + a
}

// Stages runs four loops one after the other, each recording on the
// tape the value it carries: a scan, a triangle, a scan into memory
// allocated between the loops, and a countdown from a bound computed
// between them. Its tape is reserved once, before the first, for all
// four.
func Stages(x []float64) float64 {
	n := len(x)
	p := 0.5
	for i := 0; i < n; i++ {
		p = math.Sin(p + x[i])
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			p = p*x[j] + x[i]
		}
	}
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		y[i] = math.Exp(x[i] * p)
		p *= y[i]
	}
	last := n - 1
	for i := last; i >= 0; i-- {
		p = math.Tanh(p) * x[i]
	}
	return p
}

// Recurrences runs, for each element of x, a recurrence over scratch allocated
// for it by a call: the inner loop's trip count is the scratch's length,
// known only inside the outer loop, so the tape is sized after the outer
// loop's first trip.
func Recurrences(x []float64, k int) float64 {
	s := 0.0
	for i := range x {
		row := scratch(k)
		p := x[i]
		for j := range row {
			p = math.Sin(p) * x[i]
			row[j] = p
		}
		s += row[len(row)-1] * row[0]
	}
	return s
}

// scratch returns n zeros.
func scratch(n int) []float64 { return make([]float64, n) }
