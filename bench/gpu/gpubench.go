// Package gpubench measures suite S5 on a GPU: one training step of
// bench/tensormlp's perceptron (784-256-256-10, batch 128, float64 and
// float32) — zero the gradient, gadgen's generated LossGrad, an SGD
// update — run by the same code on the CPU and on GPU 0 (package gpu),
// the only difference being that the weights and the batch were moved
// with To(gpu.Device(0)). The generated gradient code is unchanged.
// Before timing, the GPU's loss and gradient are compared with the CPU's.
//
// On a machine without a GPU (or whose GPU backend lacks a kernel the
// step needs) the CPU rows are measured and the GPU rows say why they
// are missing. The GEMM benchmark (cuBLAS vs the tiled kernel, GFLOP/s)
// is BenchmarkGEMM in package gpu; run.sh runs both, and the device
// tests, in one go:
//
//	go run ./bench/gpu/cmd/gpubench           # this table
//	bench/gpu/run.sh OUTDIR                   # everything, on a GPU machine
package gpubench

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/gadgen/gadgen/bench/tensormlp"
	"github.com/gadgen/gadgen/gpu"
	T "github.com/gadgen/gadgen/tensorops"
)

// Config sets the sizes and the timing.
type Config struct {
	In, Hidden, Out, Batch int           // the network: S5's when zero
	Sample                 time.Duration // each sample lasts at least this (default 200 ms)
	Samples                int           // the least of this many samples is kept (default 5)
	LR                     float64       // SGD step (default 1e-3)
}

// Quick is a configuration for a smoke test: a small network and short
// samples.
var Quick = Config{In: 64, Hidden: 32, Out: 10, Batch: 16, Sample: 2 * time.Millisecond, Samples: 2}

func (c Config) withDefaults() Config {
	if c.In == 0 {
		c.In, c.Hidden, c.Out, c.Batch = tensormlp.In, tensormlp.Hidden, tensormlp.Out, tensormlp.Batch
	}
	if c.Sample == 0 {
		c.Sample = 200 * time.Millisecond
	}
	if c.Samples == 0 {
		c.Samples = 5
	}
	if c.LR == 0 {
		c.LR = 1e-3
	}
	return c
}

// Row is one dtype's result.
type Row struct {
	DType T.DType
	CPU   time.Duration // per step
	GPU   time.Duration // per step; 0 when GPUErr is set
	// GPUErr says why the GPU was not timed (no GPU, or the panic of an
	// op that has no device kernel yet).
	GPUErr string
	// Loss is the CPU's loss; LossDiff and GradDiff the GPU's differences
	// from the CPU's (relative to the largest magnitude).
	Loss, LossDiff, GradDiff float64
}

// Report is the result of Run.
type Report struct {
	Config  Config
	CPU     string // BLAS, threads
	GPU     string // device name and GEMM, or why there is none
	GPUErr  error  // nil when GPU 0 is available
	Rows    []Row
	Started time.Time
}

// Step is one training step: zero g, LossGrad (the generated gradient),
// then m -= lr·g. It returns the loss. m, g, x and y are on one device.
func Step(m, g *tensormlp.MLP, x, y *T.Tensor, lr float64) float64 {
	for _, t := range g.Tensors() {
		T.Fill(t, 0)
	}
	loss := tensormlp.LossGrad(m, g, x, y)
	gs := g.Tensors()
	for i, w := range m.Tensors() {
		T.AddInto(w, T.Scale(gs[i], -lr))
	}
	return loss
}

// to returns m with its tensors on dev.
func to(m *tensormlp.MLP, dev T.Device) *tensormlp.MLP {
	ts := m.Tensors()
	for i := range ts {
		ts[i] = ts[i].To(dev)
	}
	return &tensormlp.MLP{W1: ts[0], B1: ts[1], W2: ts[2], B2: ts[3], W3: ts[4], B3: ts[5]}
}

// Run measures the step on the CPU and, when there is one, on GPU 0.
func Run(cfg Config) *Report {
	cfg = cfg.withDefaults()
	r := &Report{Config: cfg, Started: time.Now(),
		CPU: fmt.Sprintf("%s, %d threads (GOMAXPROCS %d, %d CPUs)", T.BLAS(), T.Threads(), runtime.GOMAXPROCS(0), runtime.NumCPU())}
	r.GPUErr = gpu.Available()
	if r.GPUErr != nil {
		r.GPU = r.GPUErr.Error()
	} else {
		name, err := gpu.Name(0)
		gemm, err2 := gpu.GEMM(0)
		r.GPU = fmt.Sprintf("%s; GEMM %s", name, gemm)
		if err = firstErr(err, err2); err != nil {
			r.GPUErr = err
			r.GPU = err.Error()
		}
	}
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		r.Rows = append(r.Rows, runDType(cfg, dt, r.GPUErr))
	}
	return r
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func runDType(cfg Config, dt T.DType, gpuErr error) Row {
	row := Row{DType: dt}
	m, x, y := tensormlp.New(dt, cfg.In, cfg.Hidden, cfg.Out, cfg.Batch, 1)
	g := tensormlp.Zeros(m)
	row.Loss = tensormlp.LossGrad(m, g, x, y)
	if gpuErr != nil {
		row.GPUErr = gpuErr.Error()
	} else if err := catch(func() {
		dev := gpu.Device(0)
		md, gd := to(m, dev), to(tensormlp.Zeros(m), dev)
		xd, yd := x.To(dev), y.To(dev)
		loss := tensormlp.LossGrad(md, gd, xd, yd)
		row.LossDiff = math.Abs(loss-row.Loss) / math.Max(1, math.Abs(row.Loss))
		for i, gt := range g.Tensors() {
			got := gd.Tensors()[i].To(T.CPU)
			d := T.MaxAbsDiff(got, gt) / math.Max(1, T.MaxAll(T.Abs(gt)))
			row.GradDiff = math.Max(row.GradDiff, d)
		}
		row.GPU = timeIt(cfg, func() { Step(md, gd, xd, yd, cfg.LR) }, func() { T.Sync(dev) })
	}); err != "" {
		row.GPUErr = err
	}
	mc, gc := to(m, T.CPU), tensormlp.Zeros(m)
	row.CPU = timeIt(cfg, func() { Step(mc, gc, x, y, cfg.LR) }, func() {})
	return row
}

// catch runs f and returns its panic's message, or "".
func catch(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
		}
	}()
	f()
	return ""
}

// timeIt returns the least time per call of f over cfg.Samples samples
// of at least cfg.Sample each; sync waits for queued work (the GPU's).
func timeIt(cfg Config, f, sync func()) time.Duration {
	f() // warm up: pools, JIT, libraries
	sync()
	best := time.Duration(math.MaxInt64)
	for range cfg.Samples {
		runtime.GC()
		n := 0
		start := time.Now()
		for n == 0 || time.Since(start) < cfg.Sample {
			f()
			n++
			if n%8 == 0 {
				sync()
			}
		}
		sync()
		best = min(best, time.Since(start)/time.Duration(n))
	}
	return best
}

// Markdown writes the report as a table with its setting.
func (r *Report) Markdown(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "S5 training step (zero grad, generated LossGrad, SGD update): MLP %d-%d-%d-%d, batch %d; %s\n\n",
		c.In, c.Hidden, c.Hidden, c.Out, c.Batch, r.Started.Format("2006-01-02 15:04"))
	fmt.Fprintf(w, "- CPU: %s, %s/%s, %s\n- GPU: %s\n- samples ≥ %v, least of %d\n\n", r.CPU, runtime.GOOS, runtime.GOARCH,
		runtime.Version(), r.GPU, c.Sample, c.Samples)
	fmt.Fprintln(w, "| dtype | CPU ms/step | GPU ms/step | GPU speed-up | loss | GPU−CPU loss (rel) | GPU−CPU grad (rel) |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|")
	var notes []string
	for _, row := range r.Rows {
		gpuMS, speed, ld, gd := "—", "—", "—", "—"
		if row.GPUErr == "" {
			gpuMS = ms(row.GPU)
			speed = fmt.Sprintf("%.1f×", float64(row.CPU)/float64(row.GPU))
			ld, gd = fmt.Sprintf("%.1e", row.LossDiff), fmt.Sprintf("%.1e", row.GradDiff)
		} else if row.GPUErr != r.GPU { // not the missing GPU, said above
			notes = append(notes, fmt.Sprintf("%s on the GPU: %s", row.DType, row.GPUErr))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.6g | %s | %s |\n", row.DType, ms(row.CPU), gpuMS, speed, row.Loss, ld, gd)
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintf(w, "- %s\n", strings.TrimSpace(n))
		}
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }
