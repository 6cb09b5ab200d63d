package peers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Options say what Run measures.
type Options struct {
	Sizes  Sizes
	Seed   uint64
	DTypes []DType
	Keys   []string      // contenders to run; all when empty
	Sample time.Duration // shortest sample (see Measure)
	Count  int           // samples per measurement, the calibrating one included
	// Log, when not nil, receives progress lines.
	Log io.Writer
}

// A Result is one contender in one dtype.
type Result struct {
	Key, Name string
	DType     DType
	// Err is the setup's error (see ErrUnsupported) or the failed check;
	// the contender was not timed.
	Err      error
	Setup    time.Duration // the fastest of setupTries
	Checked  Checked
	Forward  Timing
	Gradient Timing
}

// Run sets up, checks and times the registered contenders on the problem
// of o.Sizes drawn with o.Seed, every dtype for every contender, in the
// calling goroutine. All are set up and checked first; then each timer
// (the loss and the gradient of each contender that passed) is calibrated,
// and its further samples are taken in rounds, one sample of each
// timer per round (see Timer), so that each time is the fastest of o.Count
// samples including the calibrating one.
func Run(o Options) []Result {
	p := NewProblem(o.Sizes, o.Seed)
	refLoss, ref := Reference(p)
	var results []Result
	var contenders []Contender
	for _, d := range o.DTypes {
		for _, e := range Entries() {
			if len(o.Keys) > 0 && !slices.Contains(o.Keys, e.Key) {
				continue
			}
			c, setup, err := setUp(e, d, p)
			r := Result{Key: e.Key, Name: c.Name(), DType: d, Setup: setup, Err: err}
			logf(o.Log, "%s %s: set up and checked", r.Name, d)
			if r.Err == nil {
				r.Checked, r.Err = Check(c, d, refLoss, ref)
			}
			results = append(results, r)
			contenders = append(contenders, c)
		}
	}

	type timed struct {
		t    *Timer
		into *Timing
	}
	var timers []timed
	for i, c := range contenders {
		r := &results[i]
		if r.Err != nil {
			continue
		}
		logf(o.Log, "%s %s: calibration", r.Name, r.DType)
		runtime.GC()
		loss, grad := func() { c.Loss() }, func() { c.Grad() }
		if s, ok := c.(SelfTimed); ok {
			timers = append(timers,
				timed{NewSelfTimer(loss, s.TimeLoss, o.Sample), &r.Forward},
				timed{NewSelfTimer(grad, s.TimeGrad, o.Sample), &r.Gradient})
			continue
		}
		timers = append(timers,
			timed{NewTimer(loss, o.Sample), &r.Forward},
			timed{NewTimer(grad, o.Sample), &r.Gradient})
	}
	for round := 1; round < o.Count; round++ {
		logf(o.Log, "round %d of %d", round, o.Count-1)
		for _, x := range timers {
			x.t.Sample()
		}
	}
	for _, x := range timers {
		*x.into = x.t.Timing()
	}
	return results
}

// setupTries is how many times a contender is set up, fresh each time;
// the fastest is reported, leaving out one-time costs such as creating a
// library's backend.
const setupTries = 3

// setUp returns a contender of e set up on p, and the fastest of
// setupTries setups.
func setUp(e Entry, d DType, p *Problem) (Contender, time.Duration, error) {
	var c Contender
	best := time.Duration(1<<63 - 1)
	for range setupTries {
		c = e.New(d)
		runtime.GC()
		start := time.Now()
		if err := c.Setup(p); err != nil {
			return c, time.Since(start), err
		}
		best = min(best, time.Since(start))
	}
	return c, best, nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// ms writes d in milliseconds with three significant digits or more.
func ms(d time.Duration) string {
	v := float64(d) / 1e6
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// TimingTable writes the timing table in Markdown.
func TimingTable(w io.Writer, results []Result) {
	fmt.Fprintln(w, "| contender | dtype | forward ms | gradient ms | gradient/forward | bytes/call (gradient) | allocs/call (gradient) | setup ms |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|")
	for _, r := range results {
		if r.Err != nil {
			what := "**check failed**"
			if errors.Is(r.Err, ErrUnsupported) {
				what = "**unsupported**"
			}
			fmt.Fprintf(w, "| %s | %s | %s | | | | | %s |\n", r.Name, r.DType, what, ms(r.Setup))
			continue
		}
		allocs := "n/a"
		if !math.IsNaN(r.Gradient.Allocs) {
			allocs = fmt.Sprintf("%.0f", r.Gradient.Allocs)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.2f | %s | %s | %s |\n",
			r.Name, r.DType, ms(r.Forward.PerCall), ms(r.Gradient.PerCall),
			float64(r.Gradient.PerCall)/float64(r.Forward.PerCall),
			bytes(r.Gradient.Bytes), allocs, ms(r.Setup))
	}
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(w, "\n%s %s: %v\n", r.Name, r.DType, r.Err)
		}
	}
}

// AgreementTable writes, in Markdown, each contender's difference from
// the float64 reference (see Compare) and, per dtype, the largest
// difference between two contenders computing in it.
func AgreementTable(w io.Writer, results []Result) {
	fmt.Fprintln(w, "| contender | dtype | loss vs reference | gradient vs reference | worst array | tolerance |")
	fmt.Fprintln(w, "|---|---|--:|--:|---|--:|")
	for _, r := range results {
		if r.Checked.Grad[0] == nil {
			continue
		}
		d := r.Checked.Diff
		fmt.Fprintf(w, "| %s | %s | %.1e | %.1e | %s | %.0e |\n", r.Name, r.DType, d.Loss, d.Grad, d.Worst, Tolerance(r.DType))
	}
	var lines []string
	for _, dt := range DTypes {
		var loss, grad Diff
		var lossPair, gradPair string
		for i, a := range results {
			for _, b := range results[i+1:] {
				if a.DType != dt || b.DType != dt || a.Checked.Grad[0] == nil || b.Checked.Grad[0] == nil {
					continue
				}
				d := Compare(a.Checked.Loss, a.Checked.Grad, b.Checked.Loss, b.Checked.Grad)
				pair := a.Name + " vs " + b.Name
				if lossPair == "" || d.Loss > loss.Loss {
					loss, lossPair = d, pair
				}
				if gradPair == "" || d.Grad > grad.Grad {
					grad, gradPair = d, pair
				}
			}
		}
		if lossPair != "" {
			lines = append(lines, fmt.Sprintf("- %s, largest differences between two contenders: loss %.1e (%s), gradient %.1e in %s (%s)",
				dt, loss.Loss, lossPair, grad.Grad, grad.Worst, gradPair))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(lines, "\n"))
	}
}

// bytes writes b in B, KiB or MiB, or "n/a" for NaN (not measured).
func bytes(b float64) string {
	switch {
	case math.IsNaN(b):
		return "n/a"
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}
