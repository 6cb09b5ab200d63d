package taylor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/cases/memory"
)

// near reports whether got and want agree to tol relative to want.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// checkLanes compares the coefficients of a jet with lanes, degree by
// degree (lanes[(k-1)·L + l]), with the jets of each lane alone
// (single[l][k-1]).
func checkLanes(t *testing.T, what string, lanes []float64, single [][]float64) {
	t.Helper()
	L := len(single)
	for l, cs := range single {
		for k, want := range cs {
			if got := lanes[k*L+l]; !near(got, want, 1e-13) {
				t.Errorf("%s: lane %d, coefficient %d: got %v, want %v", what, l+1, k+1, got, want)
			}
		}
	}
}

// TestLanes checks that each lane of a jet along several directions at
// once (lanes=L) is the jet along its direction alone.
func TestLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	r := func() float64 { return 2*rng.Float64() - 1 }

	// Chebyshev, order 4, seed jet: every coefficient a parameter.
	x := 0.3
	var xs [4][2]float64
	for k := range xs {
		xs[k] = [2]float64{r(), r()}
	}
	got := make([]float64, 9)
	got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7], got[8] = loopsChebyshev2(x,
		xs[0][0], xs[0][1], xs[1][0], xs[1][1], xs[2][0], xs[2][1], xs[3][0], xs[3][1], 5)
	var single [][]float64
	for l := range 2 {
		v, c1, c2, c3, c4 := loopsChebyshev(x, xs[0][l], xs[1][l], xs[2][l], xs[3][l], 5)
		if v != got[0] {
			t.Errorf("Chebyshev: value %v, want %v", got[0], v)
		}
		single = append(single, []float64{c1, c2, c3, c4})
	}
	checkLanes(t, "Chebyshev", got[1:], single)

	// Polar: two varied inputs, two results, order 3.
	px, py := 0.8, -0.4
	var cx, cy [3][2]float64
	for k := range 3 {
		cx[k], cy[k] = [2]float64{r(), r()}, [2]float64{r(), r()}
	}
	res := make([]float64, 14)
	res[0], res[1], res[2], res[3], res[4], res[5], res[6], res[7], res[8], res[9], res[10], res[11], res[12], res[13] = controlPolar2(
		px, cx[0][0], cx[0][1], cx[1][0], cx[1][1], cx[2][0], cx[2][1],
		py, cy[0][0], cy[0][1], cy[1][0], cy[1][1], cy[2][0], cy[2][1])
	var rs, ths [][]float64
	for l := range 2 {
		_, _, r1, r2, r3, th1, th2, th3 := controlPolar(px, cx[0][l], cx[1][l], cx[2][l], py, cy[0][l], cy[1][l], cy[2][l])
		rs, ths = append(rs, []float64{r1, r2, r3}), append(ths, []float64{th1, th2, th3})
	}
	checkLanes(t, "Polar r", res[2:8], rs)
	checkLanes(t, "Polar θ", res[8:14], ths)

	// PathLength: slices, a callee (its jet with the same lanes), a line.
	path := make([]float64, 9)
	dirs := make([][]float64, 3)
	for i := range path {
		path[i] = r()
	}
	for l := range dirs {
		dirs[l] = make([]float64, 9)
		for i := range dirs[l] {
			dirs[l][i] = r()
		}
	}
	pl := make([]float64, 10)
	pl[0], pl[1], pl[2], pl[3], pl[4], pl[5], pl[6], pl[7], pl[8], pl[9] = callsPathLength3(path, dirs[0], dirs[1], dirs[2])
	single = nil
	for l := range 3 {
		_, c1, c2, c3 := callsPathLength(path, dirs[l])
		single = append(single, []float64{c1, c2, c3})
	}
	checkLanes(t, "PathLength", pl[1:], single)

	// Step writes through a pointer: each lane's shadows get what the
	// lane's jet alone writes into its own.
	particle := func() *memory.Particle {
		return &memory.Particle{M: 1 + rng.Float64(), X: [2]float64{r(), r()}, V: [2]float64{r(), r()}}
	}
	p := particle()
	var ps [3][2]*memory.Particle
	var dts [3][2]float64
	for k := range ps {
		for l := range 2 {
			ps[k][l], dts[k][l] = particle(), r()
		}
	}
	clone := func(q *memory.Particle) *memory.Particle { c := *q; return &c }
	lp, lps := clone(p), [3][2]*memory.Particle{}
	for k := range ps {
		for l := range 2 {
			lps[k][l] = clone(ps[k][l])
		}
	}
	memoryStep2(lp, lps[0][0], lps[0][1], lps[1][0], lps[1][1], lps[2][0], lps[2][1],
		0.1, dts[0][0], dts[0][1], dts[1][0], dts[1][1], dts[2][0], dts[2][1])
	for l := range 2 {
		sp, s1, s2, s3 := clone(p), clone(ps[0][l]), clone(ps[1][l]), clone(ps[2][l])
		memoryStep(sp, s1, s2, s3, 0.1, dts[0][l], dts[1][l], dts[2][l])
		if *sp != *lp {
			t.Errorf("Step: value %+v, want %+v", *lp, *sp)
		}
		for k, want := range []*memory.Particle{s1, s2, s3} {
			g := lps[k][l]
			for i := range 2 {
				if !near(g.X[i], want.X[i], 1e-13) || !near(g.V[i], want.V[i], 1e-13) || !near(g.M, want.M, 1e-13) {
					t.Errorf("Step: lane %d, coefficient %d: got %+v, want %+v", l+1, k+1, *g, *want)
				}
			}
		}
	}
}
