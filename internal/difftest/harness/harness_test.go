package harness

import (
	"bytes"
	"errors"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gadgen/gadgen/internal/difftest/cmath"
)

// The functions of the tests, with derivatives written by hand, correct
// ones and wrong ones.

// poly(x, a) = a·Σ x[i]² + a³.
func poly(x []float64, a float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return a*s + a*a*a
}

func polyC(x []complex128, a complex128) complex128 {
	s := complex(0, 0)
	for _, v := range x {
		s += v * v
	}
	return a*s + a*a*a
}

func polyJVP(x, dx []float64, a, da float64) (float64, float64) {
	s, ds := 0.0, 0.0
	for i, v := range x {
		s += v * v
		ds += 2 * v * dx[i]
	}
	return a*s + a*a*a, da*s + a*ds + 3*a*a*da
}

func polyGrad(x, dx []float64, a float64) (float64, float64) {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	for i, v := range x {
		dx[i] += 2 * a * v
	}
	return a*s + a*a*a, s + 3*a*a
}

// polyGradOverwrites writes the gradient over the shadow instead of
// adding it.
func polyGradOverwrites(x, dx []float64, a float64) (float64, float64) {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	for i, v := range x {
		dx[i] = 2 * a * v
	}
	return a*s + a*a*a, s + 3*a*a
}

// jet is a truncated Taylor series of degree 3.
type jet [4]float64

func (p jet) mul(q jet) jet {
	var r jet
	for i := range r {
		for j := 0; j <= i; j++ {
			r[i] += p[j] * q[i-j]
		}
	}
	return r
}

func (p jet) add(q jet) jet {
	for i := range p {
		p[i] += q[i]
	}
	return p
}

func polyJet(x []jet, a jet) jet {
	var s jet
	for _, v := range x {
		s = s.add(v.mul(v))
	}
	return a.mul(s).add(a.mul(a).mul(a))
}

func polyTaylor(x, x1, x2, x3 []float64, a, a1, a2, a3 float64) (float64, float64, float64, float64) {
	xs := make([]jet, len(x))
	for i := range x {
		xs[i] = jet{x[i], x1[i], x2[i], x3[i]}
	}
	y := polyJet(xs, jet{a, a1, a2, a3})
	return y[0], y[1], y[2], y[3]
}

func polyLine(x, x1 []float64, a, a1 float64) (float64, float64, float64, float64) {
	xs := make([]jet, len(x))
	for i := range x {
		xs[i] = jet{x[i], x1[i], 0, 0}
	}
	y := polyJet(xs, jet{a, a1, 0, 0})
	return y[0], y[1], y[2], y[3]
}

// polyLineOff gets the second coefficient wrong by 1%.
func polyLineOff(x, x1 []float64, a, a1 float64) (float64, float64, float64, float64) {
	y0, y1, y2, y3 := polyLine(x, x1, a, a1)
	return y0, y1, 1.01 * y2, y3
}

// polyTaylorLanes2 is polyTaylor along 2 curves at once (lanes=2): the
// coefficients degree by degree, lane-minor.
func polyTaylorLanes2(x, x1_1, x1_2, x2_1, x2_2, x3_1, x3_2 []float64, a, a1_1, a1_2, a2_1, a2_2, a3_1, a3_2 float64) (y, y1_1, y1_2, y2_1, y2_2, y3_1, y3_2 float64) {
	y, y1_1, y2_1, y3_1 = polyTaylor(x, x1_1, x2_1, x3_1, a, a1_1, a2_1, a3_1)
	_, y1_2, y2_2, y3_2 = polyTaylor(x, x1_2, x2_2, x3_2, a, a1_2, a2_2, a3_2)
	return
}

// polyTaylorLanes2Mixed gives lane 2 the third coefficients of lane 1.
func polyTaylorLanes2Mixed(x, x1_1, x1_2, x2_1, x2_2, x3_1, x3_2 []float64, a, a1_1, a1_2, a2_1, a2_2, a3_1, a3_2 float64) (y, y1_1, y1_2, y2_1, y2_2, y3_1, y3_2 float64) {
	y, y1_1, y1_2, y2_1, y2_2, y3_1, _ = polyTaylorLanes2(x, x1_1, x1_2, x2_1, x2_2, x3_1, x3_1, a, a1_1, a1_2, a2_1, a2_2, a3_1, a3_1)
	_, _, _, _, _, _, y3_2 = polyTaylorLanes2(x, x1_1, x1_2, x2_1, x2_2, x3_1, x3_1, a, a1_1, a1_2, a2_1, a2_2, a3_1, a3_1)
	return
}

// polyLineLanes3 is polyLine along 3 lines at once (seed=line lanes=3).
func polyLineLanes3(x, x1_1, x1_2, x1_3 []float64, a, a1_1, a1_2, a1_3 float64) (y, y1_1, y1_2, y1_3, y2_1, y2_2, y2_3, y3_1, y3_2, y3_3 float64) {
	y, y1_1, y2_1, y3_1 = polyLine(x, x1_1, a, a1_1)
	_, y1_2, y2_2, y3_2 = polyLine(x, x1_2, a, a1_2)
	_, y1_3, y2_3, y3_3 = polyLine(x, x1_3, a, a1_3)
	return
}

// scale(dst, x, a) writes dst[i] = a·x[i]² and returns Σ dst[i] if a > 0,
// and −Σ dst[i] otherwise.
func scale(dst, x []float64, a float64) float64 {
	s := 0.0
	for i, v := range x {
		dst[i] = a * v * v
		s += dst[i]
	}
	if a > 0 {
		return s
	}
	return -s
}

func scaleC(dst, x []complex128, a complex128) complex128 {
	s := complex(0, 0)
	for i, v := range x {
		dst[i] = a * v * v
		s += dst[i]
	}
	if cmath.Greater(a, 0) {
		return s
	}
	return -s
}

func scaleJVP(dst, ddst, x, dx []float64, a, da float64) (float64, float64) {
	s, ds := 0.0, 0.0
	for i, v := range x {
		dst[i] = a * v * v
		ddst[i] = da*v*v + 2*a*v*dx[i]
		s += dst[i]
		ds += ddst[i]
	}
	if a > 0 {
		return s, ds
	}
	return -s, -ds
}

// scaleVJP: on entry ddst holds the seed of dst's final values; seed that
// of the result.
func scaleVJP(dst, ddst, x, dx []float64, a, seed float64) (float64, float64) {
	y := scale(dst, x, a)
	sign := 1.0
	if a <= 0 {
		sign = -1
	}
	da := 0.0
	for i, v := range x {
		g := ddst[i] + sign*seed // adjoint of dst[i]
		ddst[i] = 0
		dx[i] += 2 * a * v * g
		da += v * v * g
	}
	return y, da
}

// scaleVJPKeeps forgets to clear the seed of dst.
func scaleVJPKeeps(dst, ddst, x, dx []float64, a, seed float64) (float64, float64) {
	saved := append([]float64(nil), ddst...)
	y, da := scaleVJP(dst, ddst, x, dx, a, seed)
	copy(ddst, saved)
	return y, da
}

func scaleJVPHang(dst, ddst, x, dx []float64, a, da float64) (float64, float64) {
	for {
		if len(x) < 0 {
			break
		}
	}
	return scaleJVP(dst, ddst, x, dx, a, da)
}

func run(t *testing.T, cases []Case) string {
	t.Helper()
	var out bytes.Buffer
	Run(cases, Config{Seed: 1, Points: 3, Out: &out, Reset: cmath.Reset, Trace: cmath.Trace, Margin: cmath.Margin})
	return out.String()
}

func TestHarness(t *testing.T) {
	polyCase := Case{Name: "poly", Len: 4, F: poly, C: polyC, JVP: polyJVP, Rev: polyGrad, Taylor: polyTaylor, Line: polyLine, Order: 3}
	scaleCase := Case{Name: "scale", Len: 3, F: scale, C: scaleC, JVP: scaleJVP, Rev: scaleVJP, Seeded: true}
	tests := []struct {
		name  string
		c     Case
		lines []string // expected output lines, as prefixes, in order
	}{
		{"poly", polyCase, []string{
			"RUN poly twin", "PASS poly twin 3", "RUN poly jvp", "PASS poly jvp 6", "RUN poly grad", "PASS poly grad 9",
			"RUN poly taylor", "PASS poly taylor 15", "RUN poly line", "PASS poly line 15", "DONE 0"}},
		{"scale", scaleCase, []string{
			"RUN scale twin", "PASS scale twin", "RUN scale jvp", "PASS scale jvp", "RUN scale vjp", "PASS scale vjp", "DONE 0"}},
		{"overwriting grad", withRev(polyCase, polyGradOverwrites, false), []string{
			"RUN poly twin", "PASS", "RUN poly jvp", "PASS", "RUN poly grad", "FAIL poly grad oracle dot:", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "DONE 1"}},
		{"vjp keeping its seed", withRev(scaleCase, scaleVJPKeeps, true), []string{
			"RUN scale twin", "PASS", "RUN scale jvp", "PASS", "RUN scale vjp", "FAIL scale vjp oracle dot:", "DONE 1"}},
		{"wrong second coefficient", withLine(polyCase, polyLineOff), []string{
			"RUN poly twin", "PASS", "RUN poly jvp", "PASS", "RUN poly grad", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "FAIL poly line taylor2: y[0]", "DONE 1"}},
		{"wrong signature", withRev(polyCase, polyJVP, false), []string{
			"RUN poly twin", "PASS", "RUN poly jvp", "PASS", "RUN poly grad", "FAIL poly grad signature: got func([]float64, []float64, float64, float64) (float64, float64), want func([]float64, []float64, float64) (float64, float64)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Split(strings.TrimSpace(run(t, []Case{tt.c})), "\n")
			for i, want := range tt.lines {
				if i >= len(got) || !strings.HasPrefix(got[i], want) {
					t.Fatalf("line %d: want prefix %q; output:\n%s", i, want, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestLanes: each lane of a jet with lanes is checked against the jet
// without lanes, or against the oracle without one.
func TestLanes(t *testing.T) {
	base := Case{Name: "poly", Len: 4, F: poly, C: polyC, Taylor: polyTaylor, Line: polyLine, Order: 3}
	tests := []struct {
		name  string
		c     Case
		lines []string // expected output lines, as prefixes, in order
	}{
		{"lanes", with(base, func(c *Case) { c.TaylorLanes, c.LineLanes, c.Lanes = polyTaylorLanes2, polyLineLanes3, 2 }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS",
			"RUN poly tlanes", "PASS poly tlanes 24", "RUN poly llanes", "FAIL poly llanes signature:", "DONE 1"}},
		{"line lanes", with(base, func(c *Case) { c.LineLanes, c.Lanes = polyLineLanes3, 3 }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "RUN poly llanes", "PASS poly llanes 36", "DONE 0"}},
		{"mixed lanes", with(base, func(c *Case) { c.TaylorLanes, c.Lanes = polyTaylorLanes2Mixed, 2 }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "RUN poly tlanes", "FAIL poly tlanes lane-taylor3: y[0] in lane 2 of 2", "DONE 1"}},
		{"mixed lanes, no reference", with(base, func(c *Case) { c.Taylor, c.TaylorLanes, c.Lanes = nil, polyTaylorLanes2Mixed, 2 }), []string{
			"RUN poly twin", "PASS", "RUN poly line", "PASS", "RUN poly tlanes", "FAIL poly tlanes taylor3: y[0] in lane 2 of 2", "DONE 1"}},
		{"lanes, no reference", with(base, func(c *Case) { c.Taylor, c.TaylorLanes, c.Lanes = nil, polyTaylorLanes2, 2 }), []string{
			"RUN poly twin", "PASS", "RUN poly line", "PASS", "RUN poly tlanes", "PASS", "DONE 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Split(strings.TrimSpace(run(t, []Case{tt.c})), "\n")
			for i, want := range tt.lines {
				if i >= len(got) || !strings.HasPrefix(got[i], want) {
					t.Fatalf("line %d: want prefix %q; output:\n%s", i, want, strings.Join(got, "\n"))
				}
			}
		})
	}
}

func with(c Case, change func(*Case)) Case {
	change(&c)
	return c
}

func withRev(c Case, rev any, seeded bool) Case {
	c.Rev, c.Seeded = rev, seeded
	return c
}

func withLine(c Case, line any) Case {
	c.Line = line
	return c
}

// TestSkip: a point where the function's outputs are not finite is
// skipped, not failed.
func TestSkip(t *testing.T) {
	f := func(x float64) float64 { return 1 / math.Abs(x-x) }
	fc := func(x complex128) complex128 { return 1 / (x - x) }
	out := run(t, []Case{{Name: "inf", Len: 1, F: f, C: fc}})
	if !strings.Contains(out, "SKIP inf twin outputs not finite") {
		t.Errorf("got %q, want a SKIP line", out)
	}
}

// TestHang runs a derivative that never returns in a child process: the
// watchdog must end it with a HANG line and status 3.
func TestHang(t *testing.T) {
	if os.Getenv("HARNESS_HANG_CHILD") == "1" {
		c := Case{Name: "scale", Len: 3, F: scale, C: scaleC, JVP: scaleJVPHang}
		Run([]Case{c}, Config{Seed: 1, Points: 1, Out: os.Stdout, Timeout: 200 * time.Millisecond})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHang$")
	cmd.Env = append(os.Environ(), "HARNESS_HANG_CHILD=1")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("child: %v, want exit status 3; output:\n%s", err, out)
	}
	if !strings.Contains(string(out), "RUN scale jvp\nHANG scale jvp still running after 200ms\n") {
		t.Errorf("child's output:\n%s\nwant RUN then HANG lines", out)
	}
}

// The second-order helpers of poly with respect to x: ∇²poly = 2a·I.

func polyHVP(x, v, hv []float64, a float64) float64 {
	for i := range x {
		hv[i] = 2 * a * v[i]
	}
	return poly(x, a)
}

func polyHessian(x, h []float64, a float64) float64 {
	n := len(x)
	for i := range n {
		for j := range n {
			h[i*n+j] = 0
		}
		h[i*n+i] = 2 * a
	}
	return poly(x, a)
}

func polyHessDiag(x, d []float64, a float64) float64 {
	for i := range d {
		d[i] = 2 * a
	}
	return poly(x, a)
}

func polyLaplacian(x []float64, a float64) (float64, float64) {
	return poly(x, a), 2 * a * float64(len(x))
}

// polyHVPMixed adds a coupling of neighbours to the product.
func polyHVPMixed(x, v, hv []float64, a float64) float64 {
	f := polyHVP(x, v, hv, a)
	for i := range x {
		hv[i] += 0.01 * v[(i+1)%len(x)]
	}
	return f
}

// polyHessianAsym sets one entry above the diagonal only.
func polyHessianAsym(x, h []float64, a float64) float64 {
	f := polyHessian(x, h, a)
	h[1] = 0.01
	return f
}

// polyHessianOff is symmetric, with a wrong pair of entries.
func polyHessianOff(x, h []float64, a float64) float64 {
	f := polyHessian(x, h, a)
	n := len(x)
	h[1], h[n] = 0.01, 0.01
	return f
}

// polyHessDiagStale leaves its destination as it was.
func polyHessDiagStale(x, d []float64, a float64) float64 { return poly(x, a) }

// polyLaplacianOff forgets the last element.
func polyLaplacianOff(x []float64, a float64) (float64, float64) {
	return poly(x, a), 2 * a * float64(len(x)-1)
}

// tally(n, x) adds 1 to n[0] and returns Σ x[i]²·n[0]: its helpers must
// call it once.
func tally(n, x []float64) float64 {
	n[0]++
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s * n[0]
}

func tallyC(n, x []complex128) complex128 {
	n[0]++
	s := complex(0, 0)
	for _, v := range x {
		s += v * v
	}
	return s * n[0]
}

func tallyHessDiag(n, x, d []float64) float64 {
	for i := range d {
		d[i] = 2 * (n[0] + 1)
	}
	return tally(n, x)
}

// tallyHessDiagLate takes the derivatives after F's write.
func tallyHessDiagLate(n, x, d []float64) float64 {
	f := tally(n, x)
	for i := range d {
		d[i] = 2 * (n[0] + 1)
	}
	return f
}

func tallyHessDiagAgain(n, x, d []float64) float64 {
	f := tallyHessDiag(n, x, d)
	tally(n, x)
	return f
}

func TestSecond(t *testing.T) {
	helpers := Case{Name: "poly", Len: 4, F: poly, C: polyC, Wrt: 0,
		HVP: polyHVP, Hessian: polyHessian, HessDiag: polyHessDiag, Laplacian: polyLaplacian}
	withJets := helpers
	withJets.Taylor, withJets.Line, withJets.Order = polyTaylor, polyLine, 3
	with := func(c Case, set func(*Case)) Case { set(&c); return c }
	passing := []string{"RUN poly twin", "PASS", "RUN poly hvp", "PASS poly hvp", "RUN poly hessdiag", "PASS",
		"RUN poly laplacian", "PASS", "RUN poly hessian", "PASS", "DONE 0"}
	tests := []struct {
		name  string
		c     Case
		lines []string
	}{
		{"by differences", helpers, passing},
		{"by jets", withJets, []string{"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS",
			"RUN poly hvp", "PASS poly hvp 12", "RUN poly hessdiag", "PASS poly hessdiag 18", "RUN poly laplacian", "PASS poly laplacian 9",
			"RUN poly hessian", "PASS poly hessian 42", "DONE 0"}},
		{"by differences, the line jet wrong", with(withJets, func(c *Case) { c.Taylor, c.Line = nil, polyLineOff }), []string{
			"RUN poly twin", "PASS", "RUN poly line", "FAIL poly line taylor2", "RUN poly hvp", "PASS", "RUN poly hessdiag", "PASS",
			"RUN poly laplacian", "PASS", "RUN poly hessian", "PASS", "DONE 1"}},
		{"mixed HVP", with(withJets, func(c *Case) { c.HVP = polyHVPMixed }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "RUN poly hvp", "FAIL poly hvp hvp-", "RUN poly hessdiag", "PASS",
			"RUN poly laplacian", "PASS", "RUN poly hessian", "PASS", "DONE 1"}},
		{"mixed HVP by differences", with(helpers, func(c *Case) { c.HVP = polyHVPMixed }), []string{
			"RUN poly twin", "PASS", "RUN poly hvp", "FAIL poly hvp hvp-"}},
		{"asymmetric Hessian", with(withJets, func(c *Case) { c.Hessian = polyHessianAsym }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "RUN poly hvp", "PASS", "RUN poly hessdiag", "PASS",
			"RUN poly laplacian", "PASS", "RUN poly hessian", "FAIL poly hessian hessian-sym", "DONE 1"}},
		{"wrong Hessian", with(withJets, func(c *Case) { c.Hessian = polyHessianOff }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "RUN poly hvp", "PASS", "RUN poly hessdiag", "PASS",
			"RUN poly laplacian", "PASS", "RUN poly hessian", "FAIL poly hessian hessian-", "DONE 1"}},
		{"stale diagonal", with(withJets, func(c *Case) { c.HessDiag = polyHessDiagStale }), []string{
			"RUN poly twin", "PASS", "RUN poly taylor", "PASS", "RUN poly line", "PASS", "RUN poly hvp", "PASS",
			"RUN poly hessdiag", "FAIL poly hessdiag hessdiag: got NaN", "RUN poly laplacian", "PASS", "RUN poly hessian", "PASS", "DONE 1"}},
		{"wrong Laplacian", with(helpers, func(c *Case) { c.Laplacian = polyLaplacianOff }), []string{
			"RUN poly twin", "PASS", "RUN poly hvp", "PASS", "RUN poly hessdiag", "PASS",
			"RUN poly laplacian", "FAIL poly laplacian laplacian:", "RUN poly hessian", "PASS", "DONE 1"}},
		{"memory", Case{Name: "tally", Len: 3, F: tally, C: tallyC, Wrt: 1, HessDiag: tallyHessDiag}, []string{
			"RUN tally twin", "PASS", "RUN tally hessdiag", "PASS", "DONE 0"}},
		{"memory written twice", Case{Name: "tally", Len: 3, F: tally, C: tallyC, Wrt: 1, HessDiag: tallyHessDiagAgain}, []string{
			"RUN tally twin", "PASS", "RUN tally hessdiag", "FAIL tally hessdiag memory: y[0]", "DONE 1"}},
		{"derivatives after a write", Case{Name: "tally", Len: 3, F: tally, C: tallyC, Wrt: 1, HessDiag: tallyHessDiagLate}, []string{
			"RUN tally twin", "PASS", "RUN tally hessdiag", "FAIL tally hessdiag hessdiag:", "DONE 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Split(strings.TrimSpace(run(t, []Case{tt.c})), "\n")
			for i, want := range tt.lines {
				if i >= len(got) || !strings.HasPrefix(got[i], want) {
					t.Fatalf("line %d: want prefix %q; output:\n%s", i, want, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestConverged: extrapolated differences that settle give their limit;
// differences on which the larger steps agree while the smaller ones
// still move far from it (the differences had not converged) give none.
func TestConverged(t *testing.T) {
	h := func(k int) float64 { return eps / float64(int(1)<<k) }
	est, _, ok := converged(func(k int) float64 { return 4 + h(k)*h(k) }, 2, 1)
	if !ok || !(math.Abs(est-2) <= 1e-12) {
		t.Errorf("smooth: got %v, %v, want 2, true", est, ok)
	}
	moving := func(k int) float64 {
		if k < 7 {
			return 1 // the larger steps agree
		}
		return 60 * float64(k-6) // the smaller ones have not settled
	}
	if est, _, ok := converged(moving, 1, 1); ok {
		t.Errorf("unsettled: got %v, want no estimate", est)
	}
}
