package bench

// This file runs a selection of the suites and reports the results.

import (
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Config selects what Run does.
type Config struct {
	// Tiers are the tiers of sizes to time. CheckOnly sizes are verified
	// whatever Tiers holds.
	Tiers []Tier
	// Suites, when not nil, keeps the suites whose ID or Name it matches.
	Suites *regexp.Regexp
	// Sampling says how to time; the zero value means DefaultSampling.
	Sampling Sampling
	// Threads is GOMAXPROCS during the run; 0 leaves it as it is.
	Threads int
	// Progress, when not nil, receives a line per problem as it is done.
	Progress io.Writer
}

// FullTiers are the tiers of a full run: the sizes of README.md's suite
// table.
var FullTiers = []Tier{Small, Medium, Large}

// A Row is one problem's result.
type Row struct {
	Suite  *Suite
	Size   Size
	Params int // length of the parameter vector
	Measurement
}

// A Report is the result of Run.
type Report struct {
	Date    time.Time
	Machine string // CPU model, OS/arch, Go version, GOMAXPROCS
	Config  Config
	Rows    []Row
}

// Run verifies and times the selected problems, one at a time, and returns
// their results. It verifies all of a problem's derivatives before timing
// any of them, and returns an error, naming the suite, size and derivative,
// as soon as one is wrong.
func Run(cfg Config) (*Report, error) {
	if cfg.Sampling == (Sampling{}) {
		cfg.Sampling = DefaultSampling
	}
	if cfg.Threads > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cfg.Threads))
	}
	rep := &Report{Date: time.Now(), Machine: machine(), Config: cfg}
	for _, s := range Suites() {
		if cfg.Suites != nil && !cfg.Suites.MatchString(s.ID) && !cfg.Suites.MatchString(s.Name) {
			continue
		}
		for _, sz := range s.Sizes {
			timed := hasTier(cfg.Tiers, sz.Tier)
			if !timed && sz.Tier != CheckOnly {
				continue
			}
			p := sz.Make()
			start := time.Now()
			if err := Verify(p); err != nil {
				return rep, fmt.Errorf("bench: %s %s %s: derivative is wrong: %w", s.ID, s.Name, sz.Label, err)
			}
			if !timed {
				progress(cfg.Progress, "%s %s: verified (%.1fs)\n", s.ID, sz.Label, time.Since(start).Seconds())
				continue
			}
			row := Row{Suite: s, Size: sz, Params: len(p.X), Measurement: Measure(p, cfg.Sampling)}
			rep.Rows = append(rep.Rows, row)
			progress(cfg.Progress, "%s %s: primal %s %s%s (%.1fs)\n", s.ID, sz.Label, duration(row.Primal),
				byteCount(row.PrimalMem.Bytes), ratios(row.Measurement), time.Since(start).Seconds())
		}
	}
	return rep, nil
}

func hasTier(tiers []Tier, t Tier) bool {
	for _, u := range tiers {
		if u == t {
			return true
		}
	}
	return false
}

func progress(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

func ratios(m Measurement) string {
	var sb strings.Builder
	for _, k := range Kinds {
		if r, ok := m.Ratio(k); ok {
			fmt.Fprintf(&sb, ", %s %s× %s", k, ratio(r), byteCount(m.Mem[k].Bytes))
		}
	}
	return sb.String()
}

// kinds returns the kinds timed in at least one row, or pending in the
// suite of one.
func (r *Report) kinds() []Kind {
	var ks []Kind
	for _, k := range Kinds {
		for _, row := range r.Rows {
			_, ok := row.Ratio(k)
			if _, pending := row.Suite.Pending[k]; ok || pending {
				ks = append(ks, k)
				break
			}
		}
	}
	return ks
}

// suites returns the suites of the rows, in order.
func (r *Report) suites() []*Suite {
	var ss []*Suite
	for _, row := range r.Rows {
		if len(ss) == 0 || ss[len(ss)-1] != row.Suite {
			ss = append(ss, row.Suite)
		}
	}
	return ss
}

// A metric is a ratio of a row: Measurement.Ratio (time) or
// Measurement.MemRatio (bytes).
type metric func(Measurement, Kind) (float64, bool)

// SuiteMean returns the geometric mean over the suite's rows of the time
// ratio of kind k, and the number of rows it is over.
func (r *Report) SuiteMean(s *Suite, k Kind) (float64, int) {
	return r.suiteMean(s, k, Measurement.Ratio)
}

func (r *Report) suiteMean(s *Suite, k Kind, m metric) (float64, int) {
	xs := r.suiteRatios(s, k, m)
	logs := make([]float64, len(xs))
	for i, x := range xs {
		logs[i] = math.Log(x)
	}
	return expMean(logs), len(logs)
}

// suiteRatios returns the ratios m of kind k over the suite's rows.
func (r *Report) suiteRatios(s *Suite, k Kind, m metric) []float64 {
	var xs []float64
	for _, row := range r.Rows {
		if row.Suite != s {
			continue
		}
		if x, ok := m(row.Measurement, k); ok {
			xs = append(xs, x)
		}
	}
	return xs
}

// Headline returns the headline of README.md for kind k: the geometric
// mean over the suites of each suite's geometric mean over its sizes, so
// that a suite with many sizes weighs as much as one with few; and the
// number of suites it is over. Suites set aside (Suite.Aside) are left out,
// and so are those for which skip returns true (nil skips none).
func (r *Report) Headline(k Kind, skip func(*Suite) bool) (float64, int) {
	var logs []float64
	for _, s := range r.suites() {
		if s.Aside != "" || skip != nil && skip(s) {
			continue
		}
		if m, n := r.SuiteMean(s, k); n > 0 {
			logs = append(logs, math.Log(m))
		}
	}
	return expMean(logs), len(logs)
}

// Slope returns the least-squares slope of log time against log Size.N
// over the suite's rows, for the function (primal) or kind k, and whether
// there were two sizes or more.
func (r *Report) Slope(s *Suite, primal bool, k Kind) (float64, bool) {
	var xs, ys []float64
	for _, row := range r.Rows {
		if row.Suite != s {
			continue
		}
		d := row.Primal
		if !primal {
			var ok bool
			if d, ok = row.Deriv[k]; !ok {
				continue
			}
		}
		xs = append(xs, math.Log(row.Size.N))
		ys = append(ys, math.Log(float64(d)))
	}
	if len(xs) < 2 {
		return 0, false
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return 0, false
	}
	return sxy / sxx, true
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func expMean(logs []float64) float64 {
	if len(logs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, l := range logs {
		s += l
	}
	return math.Exp(s / float64(len(logs)))
}

// Markdown writes the report as Markdown: the machine; a table with a row
// per problem (time of the function, ratio of each derivative's time to
// it), and the derivatives not generated yet; the same rows for the memory
// allocated per call; the geometric means per suite and overall; the
// ablation; and the log-log slopes of the suites that ask for them.
func (r *Report) Markdown(w io.Writer) error {
	var sb strings.Builder
	kinds := r.kinds()
	fmt.Fprintf(&sb, "%s; %s; samples ≥ %v, min of %d.\n\n", r.Date.Format("2006-01-02"), r.Machine,
		r.Config.Sampling.Sample, r.Config.Sampling.Count)

	sb.WriteString("Time per call: the function's, and each derivative's over it.\n\n")
	tableHeader(&sb, "| Suite | Size | Params | Primal |", "|---|---|--:|--:|", kinds)
	for _, row := range r.Rows {
		fmt.Fprintf(&sb, "| %s %s | %s | %d | %s |", row.Suite.ID, row.Suite.Name, row.Size.Label, row.Params, duration(row.Primal))
		for _, k := range kinds {
			if x, ok := row.Ratio(k); ok {
				fmt.Fprintf(&sb, " %s |", ratio(x))
			} else {
				sb.WriteString(cellMissing(row.Suite, k))
			}
		}
		sb.WriteString("\n")
	}
	r.pending(&sb)

	sb.WriteString("\nMemory per call: the bytes the function allocates on the heap (number of allocations); for each " +
		"derivative, its bytes over the function's (where the function allocates), then its own bytes (allocations).\n\n")
	tableHeader(&sb, "| Suite | Size | Primal |", "|---|---|--:|", kinds)
	for _, row := range r.Rows {
		fmt.Fprintf(&sb, "| %s %s | %s | %s |", row.Suite.ID, row.Suite.Name, row.Size.Label, alloc(row.PrimalMem))
		for _, k := range kinds {
			a, ok := row.Mem[k]
			if !ok {
				sb.WriteString(cellMissing(row.Suite, k))
				continue
			}
			if m, ok := row.MemRatio(k); ok {
				fmt.Fprintf(&sb, " %s× · %s |", ratio(m), alloc(a))
			} else {
				fmt.Fprintf(&sb, " %s |", alloc(a))
			}
		}
		sb.WriteString("\n")
	}

	sb.WriteString("\nPer suite: geometric mean of derivative time / primal time over its sizes (median; min–max), " +
		"and of derivative bytes / primal bytes where the function allocates (mem). " +
		"Overall: geometric mean over the suites; S3's ratios shrink as its O(n²) function grows, so the mean is given with and without it.\n\n")
	tableHeader(&sb, "| Suite | Target |", "|---|---|", kinds)
	for _, s := range r.suites() {
		fmt.Fprintf(&sb, "| %s %s | %s |", s.ID, s.Name, s.Target)
		for _, k := range kinds {
			xs := r.suiteRatios(s, k, Measurement.Ratio)
			m, n := r.SuiteMean(s, k)
			switch {
			case n == 0:
				sb.WriteString(cellMissing(s, k))
				continue
			case n == 1:
				fmt.Fprintf(&sb, " %s", ratio(m))
			default:
				fmt.Fprintf(&sb, " %s (median %s; %s–%s)", ratio(m), ratio(median(xs)), ratio(slices.Min(xs)), ratio(slices.Max(xs)))
			}
			if mm, n := r.suiteMean(s, k, Measurement.MemRatio); n > 0 {
				fmt.Fprintf(&sb, " · mem %s", ratio(mm))
			}
			sb.WriteString(" |")
		}
		sb.WriteString("\n")
	}
	for _, h := range []struct {
		name string
		skip func(*Suite) bool
	}{
		{"S1–S3", nil},
		{"S1–S2 (without S3)", func(s *Suite) bool { return s.Scaling }},
	} {
		fmt.Fprintf(&sb, "| **%s** | |", h.name)
		for _, k := range kinds {
			if m, n := r.Headline(k, h.skip); n > 0 {
				fmt.Fprintf(&sb, " **%s** (%d suites) |", ratio(m), n)
			} else {
				sb.WriteString(" — |")
			}
		}
		sb.WriteString("\n")
	}
	var aside []string
	for _, s := range r.suites() {
		if s.Aside != "" {
			aside = append(aside, fmt.Sprintf("%s (%s)", s.ID, s.Aside))
		}
	}
	if len(aside) > 0 {
		fmt.Fprintf(&sb, "\nNot in the overall means: %s.\n", strings.Join(aside, "; "))
	}

	r.ablation(&sb)

	for _, s := range r.suites() {
		if !s.Scaling {
			continue
		}
		fmt.Fprintf(&sb, "\n%s %s: log-log slope of time against n (1 is linear, 2 quadratic):\n\n", s.ID, s.Name)
		tableHeader(&sb, "| primal |", "|--:|", kinds)
		sb.WriteString("|")
		if m, ok := r.Slope(s, true, 0); ok {
			fmt.Fprintf(&sb, " %.2f |", m)
		} else {
			sb.WriteString(" — |")
		}
		for _, k := range kinds {
			if m, ok := r.Slope(s, false, k); ok {
				fmt.Fprintf(&sb, " %.2f |", m)
			} else {
				sb.WriteString(" — |")
			}
		}
		sb.WriteString("\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// tableHeader writes a table's header: the first columns, then a column
// per kind.
func tableHeader(sb *strings.Builder, first, rule string, kinds []Kind) {
	sb.WriteString(first)
	for _, k := range kinds {
		fmt.Fprintf(sb, " %s |", k.Title())
	}
	sb.WriteString("\n" + rule)
	for range kinds {
		sb.WriteString("--:|")
	}
	sb.WriteString("\n")
}

// notGenerated is the cell of a derivative that gadgen does not generate
// yet.
const notGenerated = "not generated yet"

// cellMissing is the cell of a kind that a row does not have: not
// generated yet, when the suite says so.
func cellMissing(s *Suite, k Kind) string {
	if _, ok := s.Pending[k]; ok {
		return " " + notGenerated + " |"
	}
	return " — |"
}

// pending writes a line per suite of the report and reason for which
// derivatives it asks for are not generated yet, with what gadgen says.
func (r *Report) pending(sb *strings.Builder) {
	first := true
	for _, s := range r.suites() {
		var reasons []string
		titles := map[string][]string{}
		for _, k := range Kinds {
			why, ok := s.Pending[k]
			if !ok {
				continue
			}
			if titles[why] == nil {
				reasons = append(reasons, why)
			}
			titles[why] = append(titles[why], k.Title())
		}
		for _, why := range reasons {
			if first {
				sb.WriteString("\nDerivatives " + notGenerated + ":\n\n")
				first = false
			}
			fmt.Fprintf(sb, "- %s %s, %s: %s\n", s.ID, s.Name, strings.Join(titles[why], " and "), why)
		}
	}
}

// Speedup returns the geometric mean over the suite's rows of the time of
// kind k without optimization over its time with it (JVPO0/JVP, GradO0/
// Grad), and the number of rows.
func (r *Report) Speedup(s *Suite, k Kind) (float64, int) {
	o0, ok := k.Unoptimized()
	if !ok {
		return 0, 0
	}
	var logs []float64
	for _, row := range r.Rows {
		a, okA := row.Deriv[k]
		b, okB := row.Deriv[o0]
		if row.Suite == s && okA && okB && a > 0 {
			logs = append(logs, math.Log(float64(b)/float64(a)))
		}
	}
	return expMean(logs), len(logs)
}

// ablation writes the speedup from optimization per suite and its
// geometric mean over the suites, for the kinds timed both ways.
func (r *Report) ablation(sb *strings.Builder) {
	var kinds []Kind
	for _, k := range []Kind{JVP, Grad} {
		o0, _ := k.Unoptimized()
		if slices.Contains(r.kinds(), k) && slices.Contains(r.kinds(), o0) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return
	}
	sb.WriteString("\nAblation: time without optimization (gadgen -O0) / time with it, geometric mean over each suite's sizes; " +
		"overall, the geometric mean over the suites (but those not in the overall means).\n\n| Suite |")
	for _, k := range kinds {
		fmt.Fprintf(sb, " %s speedup |", k.Title())
	}
	sb.WriteString("\n|---|")
	for range kinds {
		sb.WriteString("--:|")
	}
	sb.WriteString("\n")
	logs := map[Kind][]float64{}
	logsNoScaling := map[Kind][]float64{}
	for _, s := range r.suites() {
		fmt.Fprintf(sb, "| %s %s |", s.ID, s.Name)
		for _, k := range kinds {
			m, n := r.Speedup(s, k)
			if n == 0 {
				sb.WriteString(" — |")
				continue
			}
			fmt.Fprintf(sb, " %s |", ratio(m))
			if s.Aside != "" {
				continue
			}
			logs[k] = append(logs[k], math.Log(m))
			if !s.Scaling {
				logsNoScaling[k] = append(logsNoScaling[k], math.Log(m))
			}
		}
		sb.WriteString("\n")
	}
	for _, h := range []struct {
		name string
		logs map[Kind][]float64
	}{{"all suites", logs}, {"without S3", logsNoScaling}} {
		fmt.Fprintf(sb, "| **geometric mean, %s** |", h.name)
		for _, k := range kinds {
			if len(h.logs[k]) == 0 {
				sb.WriteString(" — |")
				continue
			}
			fmt.Fprintf(sb, " **%s** (%d suites) |", ratio(expMean(h.logs[k])), len(h.logs[k]))
		}
		sb.WriteString("\n")
	}
}

// ratio formats a ratio with about three significant digits.
func ratio(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	case x >= 0.01:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.2g", x)
}

// duration formats a time with three significant digits.
func duration(d time.Duration) string {
	s := d.Seconds()
	unit := "s"
	switch {
	case s < 1e-6:
		s, unit = s*1e9, "ns"
	case s < 1e-3:
		s, unit = s*1e6, "µs"
	case s < 1:
		s, unit = s*1e3, "ms"
	}
	switch {
	case s >= 100:
		return fmt.Sprintf("%.0f %s", s, unit)
	case s >= 10:
		return fmt.Sprintf("%.1f %s", s, unit)
	}
	return fmt.Sprintf("%.2f %s", s, unit)
}

// byteCount formats a number of bytes with three significant digits, in
// decimal units.
func byteCount(b float64) string {
	unit := "B"
	for _, u := range []string{"kB", "MB", "GB"} {
		if b < 999.5 {
			break
		}
		b, unit = b/1000, u
	}
	switch {
	case unit == "B" || b >= 100:
		return fmt.Sprintf("%.0f %s", b, unit)
	case b >= 10:
		return fmt.Sprintf("%.1f %s", b, unit)
	}
	return fmt.Sprintf("%.2f %s", b, unit)
}

// alloc formats the memory of a call: its bytes and, in parentheses, its
// number of allocations.
func alloc(a Alloc) string {
	n := fmt.Sprintf("%.0f", a.Allocs)
	if a.Allocs != math.Round(a.Allocs) {
		n = fmt.Sprintf("%.1f", a.Allocs)
	}
	return fmt.Sprintf("%s (%s)", byteCount(a.Bytes), n)
}

// machine describes where the run happens.
func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%s (%d CPUs), %s/%s, %s, GOMAXPROCS=%d", cpu, runtime.NumCPU(),
		runtime.GOOS, runtime.GOARCH, runtime.Version(), runtime.GOMAXPROCS(0))
}
