package revolve

import (
	"fmt"
	"testing"
)

// simulate runs the protocol of the package doc on a state that is the
// number of steps run from the start, checking that each reverse of step t
// sees the state before step t, that no more than budget copies are kept,
// and that the copies the schedule keeps are the ones restored. It returns
// the number of steps run and the largest number of copies kept.
func simulate(t *testing.T, n, budget int) (runs, peak int) {
	t.Helper()
	s := New(n, budget)
	var copies []int
	state := 0
	step := func(u int) {
		if state != u {
			t.Fatalf("n=%d budget=%d: step %d runs from state %d", n, budget, u, state)
		}
		if s.Take(u) {
			copies = append(copies, state)
			peak = max(peak, len(copies))
		}
		state++
		runs++
	}
	for u := range n {
		step(u)
	}
	for u := n - 1; u >= 0; u-- {
		from := s.Back(u)
		if len(copies) == 0 || copies[len(copies)-1] != from {
			t.Fatalf("n=%d budget=%d: Back(%d) = %d, copies %v", n, budget, u, from, copies)
		}
		state = from
		if from == u {
			copies = copies[:len(copies)-1]
		}
		for v := from; v < u; v++ {
			step(v)
		}
		if state != u {
			t.Fatalf("n=%d budget=%d: reverse of step %d from state %d", n, budget, u, state)
		}
	}
	if len(copies) != 0 || len(s.stack) != 0 {
		t.Fatalf("n=%d budget=%d: copies left: %v, schedule %v", n, budget, copies, s.stack)
	}
	if runs != s.Runs() {
		t.Fatalf("n=%d budget=%d: Runs() = %d, ran %d", n, budget, s.Runs(), runs)
	}
	return runs, peak
}

// binomial returns binomial(n, k), exactly for the small values here.
func binomial(n, k int) int {
	b := 1
	for i := 1; i <= k; i++ {
		b = b * (n - k + i) / i
	}
	return b
}

// TestSchedule checks the protocol for every n up to 300 and budgets from
// 1 to 12, the bound on the copies, and Griewank's bounds on the steps
// run: each step at most r+1 times, with r the least with
// binomial(C+r, C) ≥ n, and in all, besides the first sweep, no more than
// the minimal r·n − binomial(C+r, C+1) of binomial checkpointing
// (Griewank & Walther, Evaluating Derivatives, Proposition 12.4), which
// counts the copy at the start apart from the C.
func TestSchedule(t *testing.T) {
	for budget := 1; budget <= 12; budget++ {
		for n := 0; n <= 300; n++ {
			runs, peak := simulate(t, n, budget)
			if peak > budget {
				t.Fatalf("n=%d budget=%d: %d copies kept", n, budget, peak)
			}
			if n == 0 {
				continue
			}
			r := 0
			for binomial(budget+r, budget) < n {
				r++
			}
			if runs > (r+1)*n {
				t.Errorf("n=%d budget=%d: %d steps run, more than (r+1)·n = %d", n, budget, runs, (r+1)*n)
			}
			if opt := r*n - binomial(budget+r, budget+1); runs-n > max(opt, 0) {
				t.Errorf("n=%d budget=%d: %d steps run again, more than binomial checkpointing's %d", n, budget, runs-n, opt)
			}
			if n <= budget && runs != n {
				t.Errorf("n=%d budget=%d: %d steps run with a copy for each", n, budget, runs)
			}
		}
	}
}

// TestLarge: 10⁵ steps with 100 copies run each step at most 4 times.
func TestLarge(t *testing.T) {
	n, budget := 100000, 100
	runs, peak := simulate(t, n, budget)
	if peak > budget || runs > 4*n {
		t.Errorf("n=%d budget=%d: %d copies, %d steps run (%.2f per step)", n, budget, peak, runs, float64(runs)/float64(n))
	}
	t.Logf("n=%d budget=%d: %.2f runs per step", n, budget, float64(runs)/float64(n))
}

func TestPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"negative", func() { New(-1, 3) }},
		{"back before take", func() { New(3, 2).Back(2) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || fmt.Sprint(r)[:8] != "revolve:" {
					t.Errorf("recovered %v, want a panic of package revolve", r)
				}
			}()
			tc.f()
		})
	}
}
