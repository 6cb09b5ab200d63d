package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gadgen/gadgen/bench/gradbench/suite"
)

// A nightly summary of one eval, as GradBench's `repo stats` writes it.
type nightlySummary struct {
	Primal     string                                `json:"primal"`
	Derivative string                                `json:"derivative"`
	Tools      map[string]map[string]json.RawMessage `json:"tools"`
}

type duration struct {
	Secs  int64 `json:"secs"`
	Nanos int64 `json:"nanos"`
}

func (d duration) ns() float64 { return float64(d.Secs)*1e9 + float64(d.Nanos) }

// pair is a workload's mean primal and derivative times in ns (0: none).
type pair struct{ primal, derivative float64 }

func (p pair) ratio() float64 {
	if p.primal <= 0 || p.derivative <= 0 {
		return math.NaN()
	}
	return p.derivative / p.primal
}

// toolTimes reads a classic summary's tool: workload → pair; for particle
// and saddle (no primal) function → time in pair.derivative.
func toolTimes(raw map[string]json.RawMessage) map[string]pair {
	out := map[string]pair{}
	for w, r := range raw {
		var p struct {
			Primal     *duration `json:"primal"`
			Derivative *duration `json:"derivative"`
		}
		var d duration
		if err := json.Unmarshal(r, &p); err == nil && (p.Primal != nil || p.Derivative != nil) {
			var q pair
			if p.Primal != nil {
				q.primal = p.Primal.ns()
			}
			if p.Derivative != nil {
				q.derivative = p.Derivative.ns()
			}
			out[w] = q
		} else if json.Unmarshal(r, &d) == nil {
			out[w] = pair{derivative: d.ns()}
		}
	}
	return out
}

func median(v []float64) float64 {
	v = slices.DeleteFunc(slices.Clone(v), func(x float64) bool { return math.IsNaN(x) })
	if len(v) == 0 {
		return math.NaN()
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// evalRow is one eval's line of the summary table and plot.
type evalRow struct {
	name         string
	valid, total int
	gadgen       float64            // median ratio (or fastest time, particle/saddle)
	tools        map[string]float64 // the nightly's tools, the same measure
	timeOnly     bool               // particle, saddle: times, not ratios
}

// report writes RESULTS.md and ratios.svg into out from results.json and
// the nightly summaries.
func report(out, nightlyDir string) int {
	all := loadResults(out)
	if len(all) == 0 {
		fmt.Fprintf(os.Stderr, "gbsuite: no results in %s\n", out)
		return 1
	}
	var md strings.Builder
	var rows []evalRow
	fmt.Fprintf(&md, "# gadgen on GradBench\n\n")
	fmt.Fprintf(&md, "Made by `go run ./bench/gradbench/cmd/gbsuite` (this file and `ratios.svg`; `-table` remakes them from `results.json`) on %s, %s, %s, one thread. ", time.Now().UTC().Format("2006-01-02"), cpuName(), runtime.Version())
	fmt.Fprintf(&md, "Every evaluation ran as GradBench runs it (min_runs 1, min_seconds 1 unless stated in the run) and was validated against GradBench's reference by GradBench's rule. ")
	fmt.Fprintf(&md, "The other tools' numbers are GradBench's nightly of 2026-03-14 (`../nightly`), measured on GitHub's runners: compare **ratios** (derivative ÷ primal, each tool's own primal), not times across machines.\n\n")
	fmt.Fprintf(&md, "| eval | valid | gadgen median ratio | gadgen's rank | best tool (median ratio) | manual | enzyme | tapenade | jax | pytorch |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var detail strings.Builder
	for _, e := range suite.Evals {
		results := all[e.Name]
		if len(results) == 0 {
			continue
		}
		row := evalRow{name: e.Name, tools: map[string]float64{}}
		for _, r := range results {
			row.total++
			if r.Valid {
				row.valid++
			}
		}
		var sum nightlySummary
		b, err := os.ReadFile(filepath.Join(nightlyDir, "evals", e.Name, "summary.json"))
		if err == nil {
			_ = json.Unmarshal(b, &sum)
		}
		switch {
		case e.Name == "particle" || e.Name == "saddle":
			timeOnlyRow(&row, e, results, sum, &detail)
		case e.Primal != "":
			ratioRow(&row, e, results, sum, &detail)
		default:
			fmt.Fprintf(&md, "| %s | %d/%d | – | – | – | | | | | |\n", e.Name, row.valid, row.total)
			continue
		}
		rows = append(rows, row)
		summaryLine(&md, row)
	}
	fmt.Fprintf(&md, "\nFor particle and saddle the columns are the fastest of the four variants' mean times in ms (GradBench scores the fastest), which only compare across machines roughly. `finite` (finite differences) is left out of \"best tool\" and of the rank, which counts gadgen among every tool of the nightly that ran the eval; \"manual\" is GradBench's hand-written derivatives.\n")
	md.WriteString(detail.String())
	if err := os.WriteFile(filepath.Join(out, "RESULTS.md"), []byte(md.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(filepath.Join(out, "ratios.svg"), []byte(plot(rows)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("gbsuite: wrote %s and %s\n", filepath.Join(out, "RESULTS.md"), filepath.Join(out, "ratios.svg"))
	return 0
}

// nightlyName returns the nightly's name of workload w: the LSTM's data
// files, as GradBench's LSTM eval named its workloads until 2025-03
// (lstm_l2_c1024), are l=2,c=1024 in today's nightly.
func nightlyName(eval, w string) string {
	var l, c int
	if eval == "lstm" {
		if n, _ := fmt.Sscanf(w, "lstm_l%d_c%d", &l, &c); n == 2 {
			return fmt.Sprintf("l=%d,c=%d", l, c)
		}
	}
	return w
}

func fnCells(times map[string]float64) string {
	var s strings.Builder
	for _, f := range []string{"rr", "ff", "fr", "rf"} {
		if t, ok := times[f]; ok {
			fmt.Fprintf(&s, " %s |", ms(t))
		} else {
			s.WriteString(" – |")
		}
	}
	return s.String()
}

func validCell(results []suite.Result, w string) string {
	n, ok := 0, 0
	for _, r := range results {
		if r.Description == w {
			n++
			if r.Valid {
				ok++
			}
		}
	}
	if ok == n {
		return "yes"
	}
	return fmt.Sprintf("**%d/%d**", ok, n)
}

func ms(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) || ns <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.4g", ns/1e6)
}

func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

// cpuName returns the machine's CPU model from /proc/cpuinfo.
func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// timeOnlyRow fills row for particle or saddle, whose tools GradBench
// scores by the fastest variant's time, and writes its detail table.
func timeOnlyRow(row *evalRow, e *suite.Eval, results []suite.Result, sum nightlySummary, detail *strings.Builder) {
	row.timeOnly = true
	row.gadgen = math.Inf(1)
	fmt.Fprintf(detail, "\n## %s (mean time per function, ms; GradBench scores the fastest)\n\n| tool | rr | ff | fr | rf |\n|---|---|---|---|---|\n", e.Name)
	times := map[string]float64{}
	for _, r := range results {
		times[r.Function] = r.Mean
		if r.Valid {
			row.gadgen = min(row.gadgen, r.Mean)
		}
	}
	fmt.Fprintf(detail, "| **gadgen** (this machine) |%s\n", fnCells(times))
	for _, tool := range sortedKeys(sum.Tools) {
		tt := toolTimes(sum.Tools[tool])
		times := map[string]float64{}
		best := math.Inf(1)
		for f, p := range tt {
			times[f] = p.derivative
			best = min(best, p.derivative)
		}
		row.tools[tool] = best
		fmt.Fprintf(detail, "| %s |%s\n", tool, fnCells(times))
	}
}

// ratioRow fills row with the median ratios (derivative ÷ primal) of
// gadgen and of each tool of the nightly, and writes its detail table:
// each workload's times and ratios.
func ratioRow(row *evalRow, e *suite.Eval, results []suite.Result, sum nightlySummary, detail *strings.Builder) {
	ours := map[string]pair{}
	var order []string
	var notRun []string
	for _, r := range results {
		if r.Function == "" {
			notRun = append(notRun, r.Error)
			continue
		}
		p := ours[r.Description]
		if _, seen := ours[r.Description]; !seen {
			order = append(order, r.Description)
		}
		if r.Function == e.Primal {
			p.primal = r.Mean
		} else if r.Function == e.Derivative {
			p.derivative = r.Mean
		}
		ours[r.Description] = p
	}
	var ratios []float64
	for _, w := range order {
		ratios = append(ratios, ours[w].ratio())
	}
	row.gadgen = median(ratios)
	tools := sortedKeys(sum.Tools)
	toolPairs := map[string]map[string]pair{}
	for _, tool := range tools {
		tt := toolTimes(sum.Tools[tool])
		toolPairs[tool] = tt
		var rs []float64
		for _, p := range tt {
			rs = append(rs, p.ratio())
		}
		row.tools[tool] = median(rs)
	}
	fmt.Fprintf(detail, "\n## %s (%s and %s; times in ms, ratio = %s ÷ %s)\n\n", e.Name, e.Primal, e.Derivative, e.Derivative, e.Primal)
	fmt.Fprintf(detail, "| workload | valid | gadgen %s | gadgen %s | **gadgen ratio** |", e.Primal, e.Derivative)
	for _, t := range tools {
		fmt.Fprintf(detail, " %s |", t)
	}
	fmt.Fprintf(detail, "\n|---|---|---|---|---|%s\n", strings.Repeat("---|", len(tools)))
	for _, w := range order {
		p := ours[w]
		fmt.Fprintf(detail, "| %s | %s | %s | %s | **%s** |", w, validCell(results, w), ms(p.primal), ms(p.derivative), num(p.ratio()))
		for _, t := range tools {
			q, ok := toolPairs[t][nightlyName(e.Name, w)]
			if !ok {
				fmt.Fprintf(detail, " – |")
				continue
			}
			fmt.Fprintf(detail, " %s |", num(q.ratio()))
		}
		fmt.Fprintf(detail, "\n")
	}
	fmt.Fprintf(detail, "| **median** | %d/%d | | | **%s** |", row.valid, row.total, num(row.gadgen))
	for _, t := range tools {
		fmt.Fprintf(detail, " %s |", num(row.tools[t]))
	}
	fmt.Fprintf(detail, "\n")
	for _, m := range notRun {
		fmt.Fprintf(detail, "\n**%s**\n", m)
	}
}

// summaryLine writes row's line of the summary table: gadgen's median,
// its rank among the tools, the best tool, and five tools' medians.
func summaryLine(md *strings.Builder, row evalRow) {
	bestTool, best := "", math.Inf(1)
	for t, v := range row.tools {
		if !math.IsNaN(v) && v < best && t != "finite" {
			bestTool, best = t, v
		}
	}
	f := num
	if row.timeOnly {
		f = ms
	}
	rank, of := 1, 1
	for t, v := range row.tools {
		if t == "finite" || math.IsNaN(v) {
			continue
		}
		of++
		if v < row.gadgen {
			rank++
		}
	}
	fmt.Fprintf(md, "| %s | %d/%d | **%s** | %d of %d | %s (%s) |", row.name, row.valid, row.total, f(row.gadgen), rank, of, bestTool, f(best))
	for _, t := range []string{"manual", "enzyme", "tapenade", "jax", "pytorch"} {
		v, ok := row.tools[t]
		if !ok {
			fmt.Fprintf(md, " – |")
			continue
		}
		fmt.Fprintf(md, " %s |", f(v))
	}
	fmt.Fprintf(md, "\n")
}
