package ba

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/bench/gradbench/suite"
	"github.com/gadgen/gadgen/gadtest"
)

// TestModule runs GradBench's smallest ba workload (ba1, in testdata with
// ADBench's license) through the module, as the protocol does, and
// compares the outputs with the manual tool's by GradBench's rule.
func TestModule(t *testing.T) {
	e, err := suite.Lookup("ba")
	if err != nil {
		t.Fatal(err)
	}
	c := evaltest.Case{Eval: e, Options: suite.Options{Data: "testdata"}, Module: Module}
	if n := c.Run(t); n != 2 {
		t.Errorf("got %d requests, want objective and jacobian of ba1", n)
	}
}

// small returns a problem of 2 cameras, 3 points and 5 observations, its
// parameters taken from x (11·2 + 3·3 + 5 numbers).
func small(x []float64) *Problem {
	p, err := Input{N: 2, M: 3, P: 5, Cam: make([]float64, 11), X: make([]float64, 3), Feat: []float64{271.760969, 834.209256}}.Expand()
	if err != nil {
		panic(err)
	}
	copy(p.Cams, x[:22])
	copy(p.X, x[22:31])
	copy(p.W, x[31:])
	return p
}

// ba1 is ba1's camera, point and weight.
var ba1 = []float64{-0.758453, -1.109613, -0.845551, 34.556073, 39.676747, 53.881673, 419.194514, 5.864426, -8.518870, 0.087812, 0.002739, 7.203245, 0.001144, 3.023326, 0.417022}

// smallPoint returns the parameters of small around ba1's: each camera,
// point and weight ba1's, to be perturbed.
func smallPoint() []float64 {
	var x []float64
	for range 2 {
		x = append(x, ba1[:11]...)
	}
	for range 3 {
		x = append(x, ba1[11:14]...)
	}
	for range 5 {
		x = append(x, ba1[14])
	}
	return x
}

// TestJacobianFD checks the sparse Jacobian of a small problem, all its
// rows and columns, against central differences of Objective: J·v along
// random directions and Jᵀ·w for random seeds.
func TestJacobianFD(t *testing.T) {
	objective := func(x []float64) []float64 {
		p := small(x)
		out := make([]float64, 3*p.P)
		p.Objective(out[:2*p.P], out[2*p.P:])
		return out
	}
	jacobian := func(x []float64) (*SparseMat, []float64) {
		var j SparseMat
		small(x).Jacobian(&j)
		if len(j.Rows) != 3*5+1 || j.Rows[len(j.Rows)-1] != len(j.Vals) || len(j.Cols) != len(j.Vals) {
			t.Fatalf("got %d rows, %d columns and %d values, want 16 row starts and as many columns as values", len(j.Rows), len(j.Cols), len(j.Vals))
		}
		return &j, objective(x)
	}
	jvp := func(x, v []float64) ([]float64, []float64) {
		j, y := jacobian(x)
		jv := make([]float64, len(j.Rows)-1)
		for r := range jv {
			for k := j.Rows[r]; k < j.Rows[r+1]; k++ {
				jv[r] += j.Vals[k] * v[j.Cols[k]]
			}
		}
		return y, jv
	}
	vjp := func(x, w, xBar []float64) []float64 {
		j, y := jacobian(x)
		for r := range len(j.Rows) - 1 {
			for k := j.Rows[r]; k < j.Rows[r+1]; k++ {
				xBar[j.Cols[k]] += j.Vals[k] * w[r]
			}
		}
		return y
	}
	at := gadtest.Around(smallPoint(), 0.05)
	gadtest.VecJVP(t, objective, jvp, at, gadtest.Points(4))
	gadtest.VecVJP(t, objective, vjp, at, gadtest.Points(4))
}

// TestReprojErrorVJP checks ReprojErrorVJP against central differences
// around ba1's observation and where the rotation is zero (the branch of
// Rodrigues' formula at θ = 0).
func TestReprojErrorVJP(t *testing.T) {
	feat := []float64{271.760969, 834.209256}
	f := func(x []float64) []float64 {
		ex, ey := ReprojError(x[:11], x[11:14], x[14], feat)
		return []float64{ex, ey}
	}
	vjp := func(x, w, xBar []float64) []float64 {
		ex, ey, wBar := ReprojErrorVJP(x[:11], xBar[:11], x[11:14], xBar[11:14], x[14], feat, w[0], w[1])
		xBar[14] += wBar
		return []float64{ex, ey}
	}
	gadtest.VecVJP(t, f, vjp, gadtest.Around(ba1, 0.1))
	zero := append([]float64{0, 0, 0}, ba1[3:]...)
	gadtest.VecVJP(t, f, vjp, gadtest.At(zero))
}
