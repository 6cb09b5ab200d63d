package main

// This file defines PyTorch's part of the table: its three Laplacians,
// measured by the worker of package torchworker in the rounds of gadgen's
// methods, and the comparison of the two.

import (
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gadgen/gadgen/bench/internal/torchworker"
	"github.com/gadgen/gadgen/bench/tensorlap"
	"github.com/gadgen/gadgen/tensorops"
)

// torchTolerance is the largest relative difference accepted between
// PyTorch's Laplacian and gadgen's, both in float64.
const torchTolerance = 1e-9

// pairs match PyTorch's methods with gadgen's methods that compute the
// Laplacian the same way: the gadgen methods whose names start with
// prefix, the fastest of them.
var pairs = []struct{ torch, prefix string }{
	{"vmap(jvp(grad))", "D HVPs"},
	{"functorch.hessian", "trace of the Hessian"},
}

// A peerResult is one PyTorch method at one width.
type peerResult struct {
	name string
	t    float64 // seconds per call, the least over the rounds
	diff float64 // relative difference from gadgen's Laplacian
	cpu  float64 // the largest CPU time ÷ wall time of a sample: about 1 on one thread
}

// startTorch starts the worker under python, finding its script from the
// current directory up.
func startTorch(python string) (*torchworker.Worker, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	script, err := torchworker.FindScript(dir)
	if err != nil {
		return nil, err
	}
	return torchworker.Start(python, script)
}

// netArrays returns the network and the point as the worker's Laplacian
// problem reads them: W0…, B0…, Out, x.
func netArrays(n *tensorlap.Net, x *tensorops.Tensor) []torchworker.Array {
	arr := func(name string, t *tensorops.Tensor) torchworker.Array {
		return torchworker.Array{Name: name, Shape: t.Shape(), Data: t.Float64s()}
	}
	var as []torchworker.Array
	for i, w := range n.Ws {
		as = append(as, arr(fmt.Sprintf("W%d", i), w))
	}
	for i, b := range n.Bs {
		as = append(as, arr(fmt.Sprintf("B%d", i), b))
	}
	return append(as, arr("Out", n.Out), arr("x", x))
}

// A torchLaplacian is PyTorch's methods at one width, loaded in the
// worker and checked.
type torchLaplacian struct {
	w     *torchworker.Worker
	id    string
	calls []int // calls per sample of each method
	res   []peerResult
}

// loadTorch hands the network of width w to the worker, checks each of
// PyTorch's methods against gadgen's Laplacian want, and finds for each
// the number of calls that last at least least.
func loadTorch(pt *torchworker.Worker, w int, n *tensorlap.Net, x *tensorops.Tensor, want float64, least time.Duration) (*torchLaplacian, error) {
	id := fmt.Sprintf("lap%d", w)
	methods, err := pt.Load(id, "laplacian", "float64", netArrays(n, x))
	if err != nil {
		return nil, err
	}
	l := &torchLaplacian{w: pt, id: id}
	for _, m := range methods {
		s, err := pt.Run(id, m, 1)
		if err != nil {
			return nil, err
		}
		diff := relDiff(s.Value, want)
		if !(diff <= torchTolerance) {
			return nil, fmt.Errorf("PyTorch's %s at width %d: %v, gadgen's %v (relative difference %.1e, tolerance %.0e)", m, w, s.Value, want, diff, torchTolerance)
		}
		l.calls = append(l.calls, max(1, int(math.Ceil(float64(least)/float64(max(s.PerCall, 1))))))
		l.res = append(l.res, peerResult{name: m, t: math.Inf(1), diff: diff})
	}
	return l, nil
}

// sample times each method once more: as many calls as fill the least
// time, timed by the worker.
func (l *torchLaplacian) sample() error {
	for i := range l.res {
		s, err := l.w.Run(l.id, l.res[i].name, l.calls[i])
		if err != nil {
			return err
		}
		l.res[i].t = min(l.res[i].t, s.PerCall.Seconds())
		l.res[i].cpu = max(l.res[i].cpu, float64(s.CPU)/float64(s.PerCall))
	}
	return nil
}

func relDiff(a, b float64) float64 {
	if b == 0 {
		return math.Abs(a)
	}
	return math.Abs(a-b) / math.Abs(b)
}

// fastest returns the index of the fastest of gadgen's optimized methods
// at one width whose names start with prefix, or −1.
func fastest(rs []result, prefix string) int {
	best := -1
	for i, m := range tensorlap.Methods {
		if strings.HasPrefix(m.Name, prefix) && (best < 0 || rs[i].opt < rs[best].opt) {
			best = i
		}
	}
	return best
}

// fastestPeer returns the index of PyTorch's fastest method.
func fastestPeer(ps []peerResult) int {
	best := 0
	for i, p := range ps {
		if p.t < ps[best].t {
			best = i
		}
	}
	return best
}

// torchTable returns the Markdown table of PyTorch's times beside gadgen's:
// PyTorch's methods, the fastest of each, and the ratios PyTorch ÷ gadgen
// of the fastest and method for method (pairs).
func torchTable(version string, widths []int, res map[int][]result, tres map[int][]peerResult) string {
	var sb strings.Builder
	names := tres[widths[0]]
	var worst, cpu float64
	for _, w := range widths {
		for _, p := range tres[w] {
			worst, cpu = max(worst, p.diff), max(cpu, p.cpu)
		}
	}
	fmt.Fprintf(&sb, "Against %s, float64, in the same rounds as gadgen's methods above: each PyTorch method runs in the worker "+
		"bench/peers/torch/torchbench.py, which times its calls with time.perf_counter; milliseconds, the least over the rounds "+
		"(the worker's CPU time ÷ wall time is at most %.2f: one thread). PyTorch's Laplacians agree with gadgen's to %.1e (relative). A ratio is PyTorch's time ÷ gadgen's (above 1: gadgen is faster); "+
		"gadgen's fastest is the fastest optimized method, and a method-for-method ratio takes the fastest of gadgen's methods named so.\n\n",
		version, cpu, worst)
	sb.WriteString("| width |")
	for _, p := range names {
		fmt.Fprintf(&sb, " PyTorch %s |", p.name)
	}
	sb.WriteString(" gadgen's fastest | PyTorch's fastest | fastest ÷ fastest |")
	for _, p := range pairs {
		fmt.Fprintf(&sb, " %s ÷ gadgen's %s |", p.torch, p.prefix)
	}
	sb.WriteString("\n|--:|" + strings.Repeat("--:|", len(names)+3+len(pairs)) + "\n")
	logs, counts := make([]float64, 1+len(pairs)), make([]int, 1+len(pairs))
	for _, w := range widths {
		rs, ps := res[w], tres[w]
		fmt.Fprintf(&sb, "| %d |", w)
		for _, p := range ps {
			fmt.Fprintf(&sb, " %.1f |", p.t*1e3)
		}
		g, t := fastest(rs, ""), fastestPeer(ps)
		fmt.Fprintf(&sb, " %.1f (%s) | %.1f (%s) | %.2f× |", rs[g].opt*1e3, tensorlap.Methods[g].Name, ps[t].t*1e3, ps[t].name, ps[t].t/rs[g].opt)
		logs[0] += math.Log(ps[t].t / rs[g].opt)
		counts[0]++
		for k, p := range pairs {
			i, j := fastest(rs, p.prefix), peerIndex(ps, p.torch)
			if i < 0 || j < 0 {
				sb.WriteString(" |")
				continue
			}
			fmt.Fprintf(&sb, " %.2f× (%s) |", ps[j].t/rs[i].opt, tensorlap.Methods[i].Name)
			logs[1+k] += math.Log(ps[j].t / rs[i].opt)
			counts[1+k]++
		}
		sb.WriteString("\n")
	}
	sb.WriteString("| geometric mean |" + strings.Repeat(" |", len(names)+2))
	for k, l := range logs {
		fmt.Fprintf(&sb, " %.2f× |", math.Exp(l/float64(max(counts[k], 1))))
	}
	sb.WriteString("\n")
	return sb.String()
}

// peerIndex returns the index of PyTorch's method name, or −1.
func peerIndex(ps []peerResult, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	return -1
}
