// Package torch is PyTorch's contender: the perceptron written with
// torch's tensors and nn.functional.cross_entropy, its loss computed under
// torch.no_grad() and its gradient by loss.backward(), in the Python
// worker torchbench.py (embedded here, run as python -c), which package
// bench/internal/torchworker of gadgen's module drives. One worker, on one
// thread, serves every contender of the process.
//
// The worker times its own calls (the contender is peers.SelfTimed), so
// the round trip from Go is not part of the times. Where the interpreter
// (Python, /usr/bin/python3 unless set) cannot import torch and functorch,
// Setup returns an error wrapping peers.ErrUnsupported that says why, and
// the contender is left out of the timings.
package torch

import (
	_ "embed"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gadgen/gadgen/bench/internal/torchworker"
	"github.com/gadgen/gadgen/bench/peers"
)

// Python is the interpreter that runs the worker; cmd/peers's -python
// flag sets it.
var Python = torchworker.DefaultPython

//go:embed torchbench.py
var script string

func init() {
	peers.Register("pytorch", func(d peers.DType) peers.Contender { return &contender{dtype: d} })
}

// started is the worker of one interpreter, or why it did not start.
type started struct {
	w   *torchworker.Worker
	err error
}

var (
	mu         sync.Mutex
	workers    = map[string]started{} // by interpreter
	cpuPerWall float64                // see CPUPerWall
	ids        atomic.Int64
)

// worker returns the worker of Python, starting it on the first call.
func worker() (*torchworker.Worker, error) {
	mu.Lock()
	defer mu.Unlock()
	s, ok := workers[Python]
	if !ok {
		s.w, s.err = torchworker.Start(Python, "-c", script)
		workers[Python] = s
	}
	return s.w, s.err
}

// RoundTrip returns the median of 101 round trips of a request to the
// worker, which answers at once: what calling the worker costs, outside
// the times it measures.
func RoundTrip() (time.Duration, error) {
	w, err := worker()
	if err != nil {
		return 0, err
	}
	ds := make([]time.Duration, 101)
	for i := range ds {
		if ds[i], err = w.Ping(); err != nil {
			return 0, err
		}
	}
	slices.Sort(ds)
	return ds[len(ds)/2], nil
}

type contender struct {
	dtype peers.DType
	w     *torchworker.Worker
	id    string // the problem's name in the worker
}

func (c *contender) Name() string {
	if c.w == nil {
		return "PyTorch"
	}
	return "PyTorch " + c.w.Hello.Torch
}

func (c *contender) Setup(p *peers.Problem) error {
	w, err := worker()
	if err != nil {
		return fmt.Errorf("%w: %v", peers.ErrUnsupported, err)
	}
	var arrays []torchworker.Array
	for i, shape := range p.Shapes() {
		arrays = append(arrays, torchworker.Array{Name: peers.ParamNames[i], Shape: shape, Data: p.Params[i]})
	}
	arrays = append(arrays,
		torchworker.Array{Name: "X", Shape: []int{p.Batch, p.In}, Data: p.X},
		torchworker.Array{Name: "Y", Shape: []int{p.Batch, p.Out}, Data: p.OneHot})
	id := fmt.Sprintf("mlp%d", ids.Add(1))
	if _, err := w.Load(id, "mlp", c.dtype.String(), arrays); err != nil {
		return err
	}
	c.w, c.id = w, id
	// A contender set up again (benchmarks of Setup) leaves its problem
	// behind: the worker forgets it when the contender is collected.
	runtime.AddCleanup(c, func(id string) { w.Drop(id) }, id)
	return nil
}

// run runs method n times in the worker and returns the time of the n
// calls and the last one's value; the Contender interface has no errors,
// so a failing worker panics.
func (c *contender) run(method string, n int) (time.Duration, float64) {
	s, err := c.w.Run(c.id, method, n)
	if err != nil {
		panic(fmt.Sprintf("torch: %s: %v", method, err))
	}
	total := s.PerCall * time.Duration(n)
	if total >= 10*time.Millisecond {
		mu.Lock()
		cpuPerWall = max(cpuPerWall, float64(s.CPU)/float64(s.PerCall))
		mu.Unlock()
	}
	return total, s.Value
}

// CPUPerWall returns the largest ratio of the worker's CPU time to the
// wall time over the runs of 10 ms or more so far: about 1 when PyTorch
// runs on one thread, as it should.
func CPUPerWall() float64 {
	mu.Lock()
	defer mu.Unlock()
	return cpuPerWall
}

func (c *contender) Loss() float64 {
	_, v := c.run("loss", 1)
	return v
}

func (c *contender) Grad() float64 {
	_, v := c.run("grad", 1)
	return v
}

func (c *contender) TimeLoss(n int) time.Duration {
	d, _ := c.run("loss", n)
	return d
}

func (c *contender) TimeGrad(n int) time.Duration {
	d, _ := c.run("grad", n)
	return d
}

func (c *contender) Gradient() peers.Grads {
	arrays, err := c.w.Result(c.id)
	if err != nil || len(arrays) != peers.NumParams {
		panic(fmt.Sprintf("torch: gradient: %d arrays, %v", len(arrays), err))
	}
	var g peers.Grads
	for i, a := range arrays {
		g[i] = a.Data
	}
	return g
}
