// Package torchworker drives PyTorch from gadgen's benchmarks: it starts
// the worker bench/peers/torch/torchbench.py under a Python that has torch
// and functorch, hands it problem data, and asks it to run and time a named
// method, so that PyTorch's samples can be taken in the same rounds as
// gadgen's. Two drivers use it: the PyTorch contender of bench/peers (a
// module of its own, which imports this package from this checkout) and
// bench/tensorlap/cmd/table.
//
// The protocol is JSON lines on the worker's standard input and output (see
// the script's doc string): a request per line, a reply per line with
// "ok" and, when not ok, "error". Arrays travel in files in the Worker's
// temporary directory, raw little-endian float64 one after the other,
// their names and shapes in the message (WriteArrays, ReadArrays). The
// worker times a method itself (time.perf_counter around n calls), so the
// round trip is not part of a time.
//
// PyTorch is optional: Start returns an error wrapping ErrUnavailable when
// the interpreter cannot be run or cannot import torch and functorch, and
// the drivers then leave PyTorch out with that message.
package torchworker

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// DefaultPython is the interpreter the drivers try unless told otherwise:
// Debian's, for which python3-torch installs torch and functorch.
const DefaultPython = "/usr/bin/python3"

// ScriptPath is the worker's path relative to the repository's root.
const ScriptPath = "bench/peers/torch/torchbench.py"

// ErrUnavailable is wrapped by Start's error when PyTorch cannot be used.
var ErrUnavailable = errors.New("PyTorch unavailable")

// An Array is a named float64 array of the given shape, row-major.
type Array struct {
	Name  string    `json:"name"`
	Shape []int     `json:"shape"`
	Data  []float64 `json:"-"`
}

// size returns the number of elements of a's shape.
func (a Array) size() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// Hello is what the worker says of itself.
type Hello struct {
	Torch     string `json:"torch"`
	Functorch string `json:"functorch"`
	Python    string `json:"python"`
	Threads   int    `json:"threads"`
}

func (h Hello) String() string {
	return fmt.Sprintf("PyTorch %s (functorch %s, Python %s, %d thread)", h.Torch, h.Functorch, h.Python, h.Threads)
}

// request is one line to the worker; the fields an op does not use are
// left out.
type request struct {
	Op      string  `json:"op"`
	ID      string  `json:"id,omitempty"`
	Problem string  `json:"problem,omitempty"`
	DType   string  `json:"dtype,omitempty"`
	Path    string  `json:"path,omitempty"`
	Arrays  []Array `json:"arrays,omitempty"`
	Method  string  `json:"method,omitempty"`
	N       int     `json:"n,omitempty"`
}

// reply is one line from the worker.
type reply struct {
	OK      bool     `json:"ok"`
	Error   string   `json:"error"`
	Methods []string `json:"methods"`
	Seconds float64  `json:"seconds"`
	CPU     float64  `json:"cpu_seconds"`
	Value   float64  `json:"value"`
	Arrays  []Array  `json:"arrays"`
	Hello
}

// encode returns r as one line of JSON.
func (r request) encode() []byte {
	b, err := json.Marshal(r)
	if err != nil {
		panic("torchworker: " + err.Error()) // only strings, ints and shapes
	}
	return append(b, '\n')
}

// decodeReply reads one reply line; a reply that is not ok is an error.
func decodeReply(line []byte) (reply, error) {
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		return r, fmt.Errorf("torchworker: bad reply %q: %v", strings.TrimSpace(string(line)), err)
	}
	if !r.OK {
		return r, fmt.Errorf("torchworker: %s", r.Error)
	}
	return r, nil
}

// A Worker is a running torchbench.py. Its methods may be called from
// several goroutines; requests are answered one at a time.
type Worker struct {
	Hello Hello

	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	dir    string // the data files
	files  int
}

// Start runs python with args (the script's path, or "-c" and its text)
// on one thread (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS
// set to 1) and waits for its hello. Its error wraps ErrUnavailable when
// the interpreter cannot be started or cannot import torch and functorch.
func Start(python string, args ...string) (*Worker, error) {
	dir, err := os.MkdirTemp("", "torchworker")
	if err != nil {
		return nil, err
	}
	w := &Worker{dir: dir, stderr: &tail{max: 4096}}
	w.cmd = exec.Command(python, args...)
	w.cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1", "MKL_NUM_THREADS=1")
	w.cmd.Stderr = w.stderr
	if w.in, err = w.cmd.StdinPipe(); err == nil {
		var out io.ReadCloser
		if out, err = w.cmd.StdoutPipe(); err == nil {
			w.out = bufio.NewReaderSize(out, 1<<16)
			err = w.cmd.Start()
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s: %v", ErrUnavailable, python, err)
	}
	r, err := w.call(request{Op: "hello"})
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrUnavailable, python, err)
	}
	w.Hello = r.Hello
	return w, nil
}

// call sends r and returns the reply.
func (w *Worker) call(r request) (reply, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.in.Write(r.encode()); err != nil {
		return reply{}, w.exited(err)
	}
	line, err := w.out.ReadBytes('\n')
	if err != nil {
		return reply{}, w.exited(err)
	}
	return decodeReply(line)
}

// exited returns the error of a worker that stopped answering, with the end
// of what it wrote on standard error.
func (w *Worker) exited(err error) error {
	if s := strings.TrimSpace(w.stderr.String()); s != "" {
		return fmt.Errorf("torchworker: worker stopped (%v): %s", err, s)
	}
	return fmt.Errorf("torchworker: worker stopped: %v", err)
}

// file returns a new path in the worker's directory.
func (w *Worker) file() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.files++
	return filepath.Join(w.dir, fmt.Sprintf("%d.f64", w.files))
}

// Load hands the worker problem ("laplacian" or "mlp") as id, in dtype
// ("float64" or "float32"), and returns the names of its methods. Loading
// an id again replaces it.
func (w *Worker) Load(id, problem, dtype string, arrays []Array) ([]string, error) {
	path := w.file()
	if err := WriteArrays(path, arrays); err != nil {
		return nil, err
	}
	defer os.Remove(path)
	r, err := w.call(request{Op: "load", ID: id, Problem: problem, DType: dtype, Path: path, Arrays: arrays})
	return r.Methods, err
}

// A Sample is what the worker measured of a run of n calls.
type Sample struct {
	PerCall time.Duration // wall time per call
	CPU     time.Duration // the worker's CPU time per call, all threads: about PerCall on one thread
	Value   float64       // the last call's value
}

// Run calls method of problem id n times in the worker.
func (w *Worker) Run(id, method string, n int) (Sample, error) {
	r, err := w.call(request{Op: "run", ID: id, Method: method, N: n})
	return Sample{time.Duration(r.Seconds * 1e9), time.Duration(r.CPU * 1e9), r.Value}, err
}

// Result returns the arrays of the last run of problem id.
func (w *Worker) Result(id string) ([]Array, error) {
	path := w.file()
	defer os.Remove(path)
	r, err := w.call(request{Op: "result", ID: id, Path: path})
	if err != nil {
		return nil, err
	}
	return ReadArrays(path, r.Arrays)
}

// Drop makes the worker forget problem id.
func (w *Worker) Drop(id string) error {
	_, err := w.call(request{Op: "drop", ID: id})
	return err
}

// Ping returns the time of one round trip to the worker.
func (w *Worker) Ping() (time.Duration, error) {
	start := time.Now()
	_, err := w.call(request{Op: "ping"})
	return time.Since(start), err
}

// Close ends the worker (it exits at the end of its input) and removes
// its files.
func (w *Worker) Close() error {
	w.in.Close()
	err := w.cmd.Wait()
	os.RemoveAll(w.dir)
	return err
}

// WriteArrays writes the arrays' data to path, raw little-endian float64,
// one array after the other. It fails if an array's data does not fill its
// shape.
func WriteArrays(path string, arrays []Array) error {
	n := 0
	for _, a := range arrays {
		if len(a.Data) != a.size() {
			return fmt.Errorf("torchworker: array %s of shape %v has %d numbers", a.Name, a.Shape, len(a.Data))
		}
		n += len(a.Data)
	}
	b := make([]byte, 0, 8*n)
	for _, a := range arrays {
		for _, v := range a.Data {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return os.WriteFile(path, b, 0o600)
}

// ReadArrays reads from path the arrays of specs' names and shapes, as
// WriteArrays writes them; the file must hold exactly these.
func ReadArrays(path string, specs []Array) ([]Array, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := make([]Array, len(specs))
	for i, s := range specs {
		n := s.size()
		if len(b) < 8*n {
			return nil, fmt.Errorf("torchworker: %s: too short for array %s of shape %v", path, s.Name, s.Shape)
		}
		out[i] = Array{Name: s.Name, Shape: s.Shape, Data: make([]float64, n)}
		for j := range n {
			out[i].Data[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
		}
		b = b[8*n:]
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("torchworker: %s: %d bytes past the arrays", path, len(b))
	}
	return out, nil
}

// FindScript returns the path of the worker's script, looking for
// ScriptPath in dir and in the directories above it (a command run from
// the repository's root, or from below it).
func FindScript(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(d, ScriptPath)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("%w: %s not found in %s or above", ErrUnavailable, ScriptPath, dir)
		}
		d = up
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
