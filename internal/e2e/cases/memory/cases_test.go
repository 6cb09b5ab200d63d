package memory

import (
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "CumSquares", F: fdcheck.ScalarField(CumSquares), JVP: fdcheck.ScalarFieldJVP(CumSquaresJVP), Gen: fdcheck.Box(6, -2, 2)},
		{Name: "Squares", F: fdcheck.ScalarField(Squares), JVP: fdcheck.ScalarFieldJVP(SquaresJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Powers", F: fdcheck.Unary(Powers), JVP: fdcheck.UnaryJVP(PowersJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "Det3", Gen: fdcheck.Box(9, -2, 2),
			F: func(x []float64) []float64 { return []float64{Det3([9]float64(x))} },
			JVP: func(x, v []float64) []float64 {
				_, d := Det3JVP([9]float64(x), [9]float64(v))
				return []float64{d}
			}},
		{Name: "Swirl", F: fdcheck.Binary(Swirl), JVP: fdcheck.BinaryJVP(SwirlJVP), Gen: fdcheck.Box(2, -2, 2)},
		{Name: "Area", Gen: fdcheck.Box(2, 0.5, 3),
			F: func(x []float64) []float64 { return []float64{Area(Rect{Name: "r", W: x[0], H: x[1]})} },
			JVP: func(x, v []float64) []float64 {
				_, d := AreaJVP(Rect{Name: "r", W: x[0], H: x[1]}, Rect{W: v[0], H: v[1]})
				return []float64{d}
			}},
		{Name: "Kinetic", Gen: fdcheck.Box(5, 0.5, 2),
			F: func(x []float64) []float64 { return []float64{Kinetic(particle(x))} },
			JVP: func(x, v []float64) []float64 {
				_, d := KineticJVP(particle(x), particle(v))
				return []float64{d}
			}},
		{Name: "Step", F: step, JVP: stepJVP, Gen: fdcheck.Box(6, 0.5, 2)},
		{Name: "Accumulate", F: accumulate, JVP: accumulateJVP, Gen: fdcheck.Box(2, -2, 2)},
		{Name: "MulVec", F: mulVec, JVP: mulVecJVP, Gen: fdcheck.Box(3*4+4, -2, 2)},
		{Name: "Axpy", F: axpy, JVP: axpyJVP, Gen: fdcheck.Box(1+2*5, -2, 2)},
		{Name: "Rotate", F: rotate, JVP: rotateJVP, Gen: fdcheck.Box(2*6, -2, 2)},
		{Name: "Shift", F: shift, JVP: shiftJVP, Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Trace", F: trace, JVP: traceJVP, Gen: fdcheck.Box(16, -2, 2)},
		{Name: "Centroid", F: centroid, JVP: centroidJVP, Gen: fdcheck.Box(8, -2, 2)},
		{Name: "Tail", F: fdcheck.ScalarField(Tail), JVP: fdcheck.ScalarFieldJVP(TailJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Smooth", F: fdcheck.ScalarField(Smooth), JVP: fdcheck.ScalarFieldJVP(SmoothJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Halves", F: fdcheck.ScalarField(Halves), JVP: fdcheck.ScalarFieldJVP(HalvesJVP), Gen: fdcheck.Box(6, -2, 2)},
		{Name: "Blurred", F: fdcheck.ScalarField(Blurred), JVP: fdcheck.ScalarFieldJVP(BlurredJVP), Gen: fdcheck.Box(5, -2, 2)},
	})
}

// A JVP whose outputs go into a destination leaves the inputs alone and
// writes the same primal values as the function.
func TestDestination(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	dst, ddst := make([]float64, 4), make([]float64, 4)
	ShiftJVP(dst, ddst, x, []float64{1, 0, 0, 0, 0})
	fdcheck.Close(t, "x", x, []float64{1, 2, 3, 4, 5}, 0)
	fdcheck.Close(t, "dst", dst, []float64{2, 3, 4, 2}, 0)
	fdcheck.Close(t, "ddst", ddst, []float64{0, 0, 0, 2}, 0)
	var sum, dsum float64 = 1, 0.5
	AccumulateJVP(&sum, &dsum, 3, 1)
	if sum != 10 || dsum != 6.5 {
		t.Errorf("AccumulateJVP: sum, dsum = %v, %v; want 10, 6.5", sum, dsum)
	}
}

// particle unflattens [M, X0, X1, V0, V1].
func particle(x []float64) *Particle {
	return &Particle{M: x[0], X: [2]float64{x[1], x[2]}, V: [2]float64{x[3], x[4]}}
}

// Step: inputs M, X, V, dt; outputs the new X and V.
func step(x []float64) []float64 {
	p := particle(x)
	Step(p, x[5])
	return []float64{p.X[0], p.X[1], p.V[0], p.V[1]}
}

func stepJVP(x, v []float64) []float64 {
	p, dp := particle(x), particle(v)
	StepJVP(p, dp, x[5], v[5])
	return []float64{dp.X[0], dp.X[1], dp.V[0], dp.V[1]}
}

// Accumulate: inputs *sum, x; output *sum.
func accumulate(x []float64) []float64 {
	s := x[0]
	Accumulate(&s, x[1])
	return []float64{s}
}

func accumulateJVP(x, v []float64) []float64 {
	s, ds := x[0], v[0]
	AccumulateJVP(&s, &ds, x[1], v[1])
	return []float64{ds}
}

// MulVec: inputs a (3×4) and x (4); output dst (3).
func mulVec(x []float64) []float64 {
	dst := make([]float64, 3)
	MulVec(dst, x[:12], 4, x[12:])
	return dst
}

func mulVecJVP(x, v []float64) []float64 {
	dst, ddst := make([]float64, 3), make([]float64, 3)
	MulVecJVP(dst, ddst, x[:12], v[:12], 4, x[12:], v[12:])
	return ddst
}

// Axpy: inputs alpha, x (5), y (5); output y.
func axpy(x []float64) []float64 {
	y := append([]float64(nil), x[6:]...)
	Axpy(x[0], x[1:6], y)
	return y
}

func axpyJVP(x, v []float64) []float64 {
	y := append([]float64(nil), x[6:]...)
	dy := append([]float64(nil), v[6:]...)
	AxpyJVP(x[0], v[0], x[1:6], v[1:6], y, dy)
	return dy
}

// Rotate: inputs dst (6, half of it kept) and x (6); output dst.
func rotate(x []float64) []float64 {
	dst := append([]float64(nil), x[:6]...)
	Rotate(dst, x[6:])
	return dst
}

func rotateJVP(x, v []float64) []float64 {
	dst := append([]float64(nil), x[:6]...)
	ddst := append([]float64(nil), v[:6]...)
	RotateJVP(dst, ddst, x[6:], v[6:])
	return ddst
}

// Shift: input x (5); output dst (4).
func shift(x []float64) []float64 {
	dst := make([]float64, 4)
	Shift(dst, x)
	return dst
}

func shiftJVP(x, v []float64) []float64 {
	dst, ddst := make([]float64, 4), make([]float64, 4)
	ShiftJVP(dst, ddst, x, v)
	return ddst
}

// rows unflattens a 4×4 matrix into a slice of slices.
func rows(x []float64) [][]float64 {
	a := make([][]float64, 4)
	for i := range a {
		a[i] = x[4*i : 4*i+4]
	}
	return a
}

func trace(x []float64) []float64 { return []float64{Trace(rows(x))} }

func traceJVP(x, v []float64) []float64 {
	_, d := TraceJVP(rows(x), rows(v))
	return []float64{d}
}

// pairs unflattens [A0, B0, A1, B1, …].
func pairs(x []float64) []Pair {
	ps := make([]Pair, len(x)/2)
	for i := range ps {
		ps[i] = Pair{x[2*i], x[2*i+1]}
	}
	return ps
}

func centroid(x []float64) []float64 {
	a, b := Centroid(pairs(x))
	return []float64{a, b}
}

func centroidJVP(x, v []float64) []float64 {
	_, _, da, db := CentroidJVP(pairs(x), pairs(v))
	return []float64{da, db}
}
