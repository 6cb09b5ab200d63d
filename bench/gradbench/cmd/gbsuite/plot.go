package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// plot returns an SVG strip chart: one line per eval (particle and saddle,
// scored by time, are left to the table), each GradBench tool's median
// ratio derivative ÷ primal as a grey dot on a log scale (its name in the
// dot's title), gadgen's as a red dot with its value.
func plot(rows []evalRow) string {
	const (
		left, right, top, rowH = 90.0, 30.0, 50.0, 34.0
		width                  = 760.0
		lo, hi                 = 0.5, 2000.0 // the axis' range of ratios
	)
	var ratioRows []evalRow
	for _, r := range rows {
		if !r.timeOnly {
			ratioRows = append(ratioRows, r)
		}
	}
	height := top + rowH*float64(len(ratioRows)) + 50
	x := func(v float64) float64 {
		v = math.Min(math.Max(v, lo), hi)
		return left + (width-left-right)*math.Log(v/lo)/math.Log(hi/lo)
	}
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&s, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&s, `<text x="%g" y="16" font-size="14">Median derivative ÷ primal per GradBench eval</text>`+"\n", 10.0)
	fmt.Fprintf(&s, `<text x="%g" y="31" fill="#555">gadgen in red (this machine), GradBench's tools in grey (nightly 2026-03-14; a dot's title names the tool)</text>`+"\n", 10.0)
	for _, t := range []float64{0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000} {
		xt := x(t)
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#ddd"/>`+"\n", xt, top-5, xt, height-40)
		fmt.Fprintf(&s, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%g</text>`+"\n", xt, height-25, t)
	}
	fmt.Fprintf(&s, `<text x="%g" y="%g" text-anchor="middle" fill="#555">ratio (log scale; lower is better)</text>`+"\n", (left+width-right)/2, height-8)
	for i, r := range ratioRows {
		y := top + rowH*float64(i) + rowH/2
		fmt.Fprintf(&s, `<text x="%g" y="%.1f" text-anchor="end">%s</text>`+"\n", left-10, y+4, html.EscapeString(r.name))
		fmt.Fprintf(&s, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#eee"/>`+"\n", left, y, width-right, y)
		for _, t := range sortedKeys(r.tools) {
			v := r.tools[t]
			if math.IsNaN(v) {
				continue
			}
			fmt.Fprintf(&s, `<circle cx="%.1f" cy="%.1f" r="4" fill="#999" fill-opacity="0.6"><title>%s %.2f</title></circle>`+"\n", x(v), y, html.EscapeString(t), v)
		}
		if !math.IsNaN(r.gadgen) {
			fmt.Fprintf(&s, `<circle cx="%.1f" cy="%.1f" r="6" fill="#d62728"><title>gadgen %.2f</title></circle>`+"\n", x(r.gadgen), y, r.gadgen)
			fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#d62728" font-size="10">%.2f</text>`+"\n", x(r.gadgen), y-9, r.gadgen)
		}
	}
	s.WriteString("</svg>\n")
	return s.String()
}
