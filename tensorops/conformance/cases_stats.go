package conformance

import (
	"fmt"
	"math"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// fvar returns the variance of v with the divisor len(v) − ddof, by two
// passes in float64 (NaN for an empty v, ±Inf or NaN for len(v) = ddof).
func fvar(v []float64, ddof int) float64 {
	m := fmean(v)
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return s / float64(len(v)-ddof)
}

// statsTol is the tolerance of a variance (or standard deviation) of n
// elements in [-2, 2].
func (c *ctx) statsTol(n int) tol {
	return c.sumTol(n, 16)
}

// testStats checks Var, Std, VarAll and StdAll: the reduction cases with
// ddof 0 and 1, an empty axis, one element with ddof 1 (NaN), equal
// elements (zero), and their panics.
func testStats(t *testing.T, c *ctx) {
	type op struct {
		name string
		f    func(*T.Tensor, int, int) *T.Tensor
		ref  func([]float64, int) float64
	}
	ops := []op{
		{"Var", T.Var, fvar},
		{"Std", T.Std, func(v []float64, ddof int) float64 { return math.Sqrt(fvar(v, ddof)) }},
	}
	cases := append(reduceCases, axisCase{[]int{3, 0}, 1}, axisCase{[]int{2, 1, 3}, 1})
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			c.skip(t, o.name)
			for _, rc := range cases {
				ax := normAx(rc.axis, len(rc.shape))
				for ddof := range 2 {
					if ddof > rc.shape[ax] {
						continue
					}
					a := c.rand(-2, 2, rc.shape...)
					want := refReduce(a, rc.axis, func(v []float64) float64 { return o.ref(v, ddof) })
					for _, l := range layoutsFor(rc.shape) {
						name := fmt.Sprintf("%s(%s %v, %d, %d)", o.name, shapeName(rc.shape), l, rc.axis, ddof)
						c.check(t, name, o.f(c.tensor(a, l), rc.axis, ddof), want, c.statsTol(rc.shape[ax]))
					}
				}
			}
			// Four equal elements: their mean is exact, their variance
			// zero, not a rounding error.
			a := newArr(3, 4)
			for i := range a.v {
				a.v[i] = c.round(0.1)
			}
			c.check(t, o.name+" of equal elements", o.f(c.tensor(a, contig), 1, 0), newArr(3), exact)
			x := c.tensor(newArr(3, 5), contig)
			mustPanic(t, o.name+" axis", func() { o.f(x, 2, 0) }, "tensorops: "+o.name+": axis 2 out of range for shape [3 5]")
			mustPanic(t, o.name+" ddof", func() { o.f(x, 0, 4) }, "tensorops: "+o.name+": ddof 4 out of range [0, 3] for shape [3 5]")
			mustPanic(t, o.name+" ddof", func() { o.f(x, 1, -1) }, "tensorops: "+o.name+": ddof -1 out of range [0, 5] for shape [3 5]")
			mustPanic(t, o.name+" nil", func() { o.f(nil, 0, 0) }, "tensorops: "+o.name+": nil")
		})
	}
	t.Run("All", func(t *testing.T) {
		c.skip(t, "VarAll")
		for _, shape := range [][]int{{}, {1}, {7}, {3, 5}, {2, 3, 4}, {0, 4}, {100003}, {313, 317}} {
			n := numel(shape)
			for ddof := range 2 {
				a := c.rand(-2, 2, shape...)
				want := fvar(a.v, ddof)
				for _, l := range layoutsFor(shape) {
					x := c.tensor(a, l)
					name := fmt.Sprintf("(%s %v, %d)", shapeName(shape), l, ddof)
					if ddof > n {
						mustPanic(t, "VarAll"+name, func() { T.VarAll(x, ddof) }, "tensorops: VarAll: ddof 1 out of range [0, 0]")
						mustPanic(t, "StdAll"+name, func() { T.StdAll(x, ddof) }, "tensorops: StdAll: ddof 1 out of range [0, 0]")
						continue
					}
					c.checkScalar(t, "VarAll"+name, T.VarAll(x, ddof), want, c.statsTol(n))
					c.checkScalar(t, "StdAll"+name, T.StdAll(x, ddof), math.Sqrt(want), c.statsTol(n))
				}
			}
		}
		mustPanic(t, "VarAll nil", func() { T.VarAll(nil, 0) }, "tensorops: VarAll: nil")
		mustPanic(t, "StdAll nil", func() { T.StdAll(nil, 0) }, "tensorops: StdAll: nil")
	})
}
