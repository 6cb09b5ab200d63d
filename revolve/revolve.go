// Package revolve schedules binomial checkpointing for gradients that
// gadgen generates with //gad:grad checkpoint=C: the reverse of a loop of
// n steps keeps at most C copies of the loop's state at once, instead of
// one per step, and recomputes the steps in between from the nearest copy
// (Griewank's treeverse and Revolve; Griewank & Walther, Evaluating
// Derivatives, 2nd ed., ch. 12; Griewank, "Achieving logarithmic growth of
// temporal and spatial complexity in reverse automatic differentiation",
// 1992). Generated code imports it; it imports nothing of gadgen.
//
// # Protocol
//
// The generated gradient runs the loop's steps 0, …, n−1 forward once,
// calling Take(t) before each step t and copying the state when it says
// so (a stack of copies: each new copy goes on top). Then, for each step t
// from n−1 down to 0, it calls Back(t), which returns the step from whose
// copy it goes on: it restores the copy on top of the stack (the state
// before step from) and drops it when from is t; otherwise it keeps it,
// runs the steps from, …, t−1 again, calling Take before each of them
// (pushing the copies it asks for), and then reverses step t.
//
// # Cost
//
// With C copies, n steps and r the least integer with
// binomial(C+r, C) ≥ n, every step runs at most r+1 times in all (r is 3
// for C = 100 and n = 10⁵), which is the least any schedule of C copies
// achieves (Griewank 1992). With C ≥ n every step is copied once and none
// runs twice.
package revolve

// Schedule is the checkpointing schedule of one reversal. Its methods
// panic on calls out of the protocol's order.
type Schedule struct {
	n, budget int
	stack     []int // the steps whose states are copied, increasing
	keep      []int // the steps the running sweep copies next, increasing
	next      int   // keep[next] is the next of them
	runs      int   // steps run (counting the first sweep's)
}

// New returns the schedule for n steps with at most budget copies of the
// state kept at once (at least 1).
func New(n, budget int) *Schedule {
	if n < 0 {
		panic("revolve: negative number of steps")
	}
	s := &Schedule{n: n, budget: max(budget, 1), stack: make([]int, 0, min(max(budget, 1), max(n, 1)))}
	if n > 0 {
		s.keep = append(s.keep, 0)
		s.plan(0, n, s.budget-1, true)
	}
	return s
}

// Take reports whether the state before step t is copied: call it before
// each step of a sweep.
func (s *Schedule) Take(t int) bool {
	s.runs++
	if s.next < len(s.keep) && s.keep[s.next] == t {
		s.next++
		s.stack = append(s.stack, t)
		return true
	}
	return false
}

// Back returns, before the reverse of step t, the step whose copy the
// reverse restores: the copy on top of the stack. When it is t the copy
// is dropped; otherwise the steps from it up to t−1 run again, calling
// Take before each.
func (s *Schedule) Back(t int) int {
	if len(s.stack) == 0 || s.stack[len(s.stack)-1] > t {
		panic("revolve: Back out of order")
	}
	from := s.stack[len(s.stack)-1]
	if from == t {
		s.stack = s.stack[:len(s.stack)-1]
		return t
	}
	s.keep, s.next = s.keep[:0], 0
	s.plan(from, t+1, s.budget-len(s.stack), false)
	return from
}

// plan lists in keep the steps to copy while running from step a (copied
// already) towards b, with free more copies: treeverse's split points,
// each the start of the part that is reversed first with one copy less.
// last says whether step b−1 is copied too (the first sweep goes past it;
// a sweep that stops there reverses it at once).
func (s *Schedule) plan(a, b, free int, last bool) {
	for free > 0 && b-a > 1 {
		m := a + split(b-a, free)
		if m == b-1 && !last {
			return
		}
		s.keep = append(s.keep, m)
		a, free = m, free-1
	}
}

// split returns where to place the first copy in l ≥ 2 steps reversed
// from a copy at their start with free ≥ 1 more copies. With L(c, r) =
// binomial(c+r+1, c+1), the most steps c free copies reverse when each
// step runs at most r more times (L(c, r) = L(c, r−1) + L(c−1, r)), and r
// the least with L(free, r) ≥ l: the first part, which runs once more,
// gets at most L(free, r−1) steps and the second, with one copy less, at
// most L(free−1, r).
func split(l, free int) int {
	r := 1
	for reach(free, r, l) < l {
		r++
	}
	return min(reach(free, r-1, l), l-1)
}

// reach returns L(c, r) = binomial(c+r+1, c+1), or cap when it is larger.
func reach(c, r, cap int) int {
	// binomial(c+r+1, r), the smaller loop for large c.
	b := 1
	for i := 1; i <= r; i++ {
		b = b * (c + 1 + i) / i
		if b > cap {
			return cap + 1
		}
	}
	return b
}

// Runs returns the number of steps run so far, counting the first sweep:
// n when no step ran twice.
func (s *Schedule) Runs() int { return s.runs }
