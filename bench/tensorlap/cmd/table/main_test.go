package main

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gadgen/gadgen/bench/internal/torchworker"
	"github.com/gadgen/gadgen/bench/tensorlap"
)

// fake returns made-up results at widths: gadgen's method i takes
// w/(i+1) µs optimized (the last method is the fastest), twice that with
// opt=0; PyTorch's three methods take 3w, 2w and 10w µs.
func fake(widths []int) (map[int][]result, map[int][]peerResult) {
	res, tres := map[int][]result{}, map[int][]peerResult{}
	for _, w := range widths {
		for i := range tensorlap.Methods {
			t := float64(w) / float64(i+1) * 1e-6
			res[w] = append(res[w], result{opt: t, o0: 2 * t})
		}
		tres[w] = []peerResult{
			{name: "functorch.hessian", t: 3 * float64(w) * 1e-6, diff: 1e-15, cpu: 1.01},
			{name: "vmap(jvp(grad))", t: 2 * float64(w) * 1e-6, diff: 2e-15},
			{name: "autograd.functional.hessian", t: 10 * float64(w) * 1e-6},
		}
	}
	return res, tres
}

func TestTorchTable(t *testing.T) {
	widths := []int{100, 400}
	res, tres := fake(widths)
	md := torchTable("PyTorch 9.9", widths, res, tres)
	last := len(tensorlap.Methods) - 1
	k := float64(last + 1)
	hvp, hess := fastest(res[100], "D HVPs"), fastest(res[100], "trace of the Hessian")
	if hvp < 0 || hess < 0 {
		t.Fatalf("no gadgen method named D HVPs… or trace of the Hessian… in %v", tensorlap.Methods)
	}
	wants := []string{
		"Against PyTorch 9.9, float64",
		"CPU time ÷ wall time is at most 1.01",
		"agree with gadgen's to 2.0e-15",
		"| width | PyTorch functorch.hessian | PyTorch vmap(jvp(grad)) | PyTorch autograd.functional.hessian | gadgen's fastest | PyTorch's fastest | fastest ÷ fastest | vmap(jvp(grad)) ÷ gadgen's D HVPs | functorch.hessian ÷ gadgen's trace of the Hessian |",
		fmt.Sprintf("| 100 | 0.3 | 0.2 | 1.0 | %.1f (%s) | 0.2 (vmap(jvp(grad))) | %.2f× | %.2f× (%s) | %.2f× (%s) |",
			0.1/k, tensorlap.Methods[last].Name, 2*k,
			2*float64(hvp+1), tensorlap.Methods[hvp].Name, 3*float64(hess+1), tensorlap.Methods[hess].Name),
		fmt.Sprintf("| geometric mean | | | | | | %.2f× | %.2f× | %.2f× |", 2*k, 2*float64(hvp+1), 3*float64(hess+1)),
	}
	for _, want := range wants {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
}

// TestFastest: the fastest among the methods whose names start with a
// prefix; the empty prefix takes all.
func TestFastest(t *testing.T) {
	res, tres := fake([]int{100})
	if got, want := fastest(res[100], ""), len(tensorlap.Methods)-1; got != want {
		t.Errorf("fastest of all: %d, want %d (the last)", got, want)
	}
	for _, p := range pairs {
		i := fastest(res[100], p.prefix)
		for j, m := range tensorlap.Methods {
			if strings.HasPrefix(m.Name, p.prefix) && j > i {
				t.Errorf("fastest %q: %d, but %d (%s) is faster", p.prefix, i, j, m.Name)
			}
		}
		if i < 0 || !strings.HasPrefix(tensorlap.Methods[i].Name, p.prefix) {
			t.Errorf("fastest %q: %d", p.prefix, i)
		}
		if peerIndex(tres[100], p.torch) < 0 {
			t.Errorf("PyTorch's %s is not among the worker's methods", p.torch)
		}
	}
	if got := fastest(res[100], "no such method"); got != -1 {
		t.Errorf("fastest of none: %d, want -1", got)
	}
	if got := fastestPeer(tres[100]); got != 1 {
		t.Errorf("fastest PyTorch method: %d, want 1", got)
	}
}

func TestPlot(t *testing.T) {
	for _, widths := range [][]int{{128}, {128, 256, 512}} {
		res, tres := fake(widths)
		for _, withTorch := range []bool{false, true} {
			tr := tres
			if !withTorch {
				tr = nil
			}
			svg := plot(widths, res, tr)
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("widths %v: the plot has NaN or Inf:\n%s", widths, svg)
			}
			if got := strings.Contains(svg, "PyTorch, fastest"); got != withTorch {
				t.Errorf("widths %v, PyTorch %v: legend has PyTorch: %v", widths, withTorch, got)
			}
			if got, want := strings.Count(svg, "<polyline"), 2*len(tensorlap.Methods)+len(tr)/max(len(tr), 1); got != want {
				t.Errorf("widths %v, PyTorch %v: %d lines, want %d", widths, withTorch, got, want)
			}
		}
	}
}

func TestTable(t *testing.T) {
	res, _ := fake([]int{100})
	md := table([]int{100}, res)
	if !strings.Contains(md, "| 100 | 0.1 / 0.2 (2.00×) |") {
		t.Errorf("table lacks the first method at width 100:\n%s", md)
	}
	if i, j := methodIndex("collapsed Taylor"), methodIndex("D HVPs"); i >= 0 && j >= 0 {
		if want := fmt.Sprintf(" %.2f |", float64(j+1)/float64(i+1)); !strings.Contains(md, want) {
			t.Errorf("table lacks collapsed ÷ D HVPs %q:\n%s", want, md)
		}
	}
}

func TestParseWidths(t *testing.T) {
	if ws, err := parseWidths(""); err != nil || fmt.Sprint(ws) != fmt.Sprint(tensorlap.Widths) {
		t.Errorf("default: %v, %v; want %v", ws, err, tensorlap.Widths)
	}
	if ws, err := parseWidths("128, 512"); err != nil || fmt.Sprint(ws) != "[128 512]" {
		t.Errorf("128, 512: %v, %v", ws, err)
	}
	for _, bad := range []string{"x", "0", "128,"} {
		if _, err := parseWidths(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNetArrays(t *testing.T) {
	n, x := tensorlap.New(4, 5, 2, 1)
	var got []string
	for _, a := range netArrays(n, x) {
		if len(a.Data) != a.Shape[0]*a.Shape[1] {
			t.Errorf("%s: %d numbers for shape %v", a.Name, len(a.Data), a.Shape)
		}
		got = append(got, fmt.Sprint(a.Name, a.Shape))
	}
	if want := "[W0[4 5] W1[5 5] B0[1 5] B1[1 5] Out[1 5] x[1 4]]"; fmt.Sprint(got) != want {
		t.Errorf("arrays %v, want %s", got, want)
	}
}

// TestTorchLaplacian loads a small network into PyTorch's worker, where
// PyTorch is installed, and checks its three Laplacians against gadgen's.
func TestTorchLaplacian(t *testing.T) {
	pt, err := startTorch(torchworker.DefaultPython)
	// PyTorch is an optional peer: CI installs none and never runs this; it
	// runs where torch imports.
	if errors.Is(err, torchworker.ErrUnavailable) {
		t.Skipf("PyTorch is an optional peer, not usable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Close()
	n, x := tensorlap.New(8, 16, 3, 1)
	want := tensorlap.Methods[0].Opt(n, x)
	l, err := loadTorch(pt, 16, n, x, want, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.sample(); err != nil {
		t.Fatal(err)
	}
	if len(l.res) != 3 {
		t.Errorf("%d PyTorch methods, want 3", len(l.res))
	}
	for _, r := range l.res {
		if math.IsInf(r.t, 0) || r.t <= 0 {
			t.Errorf("%s: time %v", r.name, r.t)
		}
		t.Logf("%s: relative difference %.1e from gadgen's %v", r.name, r.diff, want)
	}
}
