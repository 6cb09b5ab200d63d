package torchworker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeEnv makes the test binary act as a worker (see fakeWorker).
const fakeEnv = "TORCHWORKER_FAKE"

func TestMain(m *testing.M) {
	switch os.Getenv(fakeEnv) {
	case "":
		os.Exit(m.Run())
	case "noimport":
		// What torchbench.py answers where torch is missing.
		bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Println(`{"ok": false, "error": "import torch, functorch: No module named 'torch'"}`)
		os.Exit(1)
	default:
		fakeWorker()
		os.Exit(0)
	}
}

// fakeWorker speaks the protocol without PyTorch: a problem's one method,
// "sum", returns the sum of its arrays, and the result of a run is the
// arrays doubled.
func fakeWorker() {
	problems := map[string][]Array{}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		var req request
		rep := map[string]any{"ok": true}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			rep = map[string]any{"ok": false, "error": err.Error()}
		}
		switch req.Op {
		case "hello":
			rep["torch"], rep["functorch"], rep["python"], rep["threads"] = "fake", "fake", "none", 1
		case "load":
			a, err := ReadArrays(req.Path, req.Arrays)
			if err != nil {
				rep = map[string]any{"ok": false, "error": err.Error()}
				break
			}
			problems[req.ID] = a
			rep["methods"] = []string{"sum"}
		case "run":
			var s float64
			for _, a := range problems[req.ID] {
				for _, v := range a.Data {
					s += v
				}
			}
			rep["seconds"], rep["cpu_seconds"], rep["value"] = 0.001, 0.002, s
		case "result":
			var twice []Array
			for _, a := range problems[req.ID] {
				d := make([]float64, len(a.Data))
				for i, v := range a.Data {
					d[i] = 2 * v
				}
				twice = append(twice, Array{Name: a.Name, Shape: a.Shape, Data: d})
			}
			WriteArrays(req.Path, twice)
			rep["arrays"] = twice
		case "drop", "ping":
		default:
			rep = map[string]any{"ok": false, "error": "KeyError: '" + req.Op + "'"}
		}
		b, _ := json.Marshal(rep)
		fmt.Printf("%s\n", b)
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		r    request
		want string
	}{
		{request{Op: "hello"}, `{"op":"hello"}`},
		{request{Op: "load", ID: "a", Problem: "mlp", DType: "float32", Path: "/tmp/1.f64",
			Arrays: []Array{{Name: "W1", Shape: []int{2, 3}, Data: []float64{1, 2, 3, 4, 5, 6}}, {Name: "b1", Shape: []int{3}}}},
			`{"op":"load","id":"a","problem":"mlp","dtype":"float32","path":"/tmp/1.f64","arrays":[{"name":"W1","shape":[2,3]},{"name":"b1","shape":[3]}]}`},
		{request{Op: "run", ID: "a", Method: "vmap(jvp(grad))", N: 7}, `{"op":"run","id":"a","method":"vmap(jvp(grad))","n":7}`},
	}
	for _, tt := range tests {
		t.Run(tt.r.Op, func(t *testing.T) {
			if got := string(tt.r.encode()); got != tt.want+"\n" {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDecodeReply(t *testing.T) {
	r, err := decodeReply([]byte(`{"seconds": 0.0125, "cpu_seconds": 0.0126, "value": -0.002426633887141456, "ok": true}` + "\n"))
	if err != nil || r.Seconds != 0.0125 || r.CPU != 0.0126 || r.Value != -0.002426633887141456 {
		t.Errorf("got %+v, %v; want seconds 0.0125, CPU 0.0126, value -0.002426633887141456", r, err)
	}
	_, err = decodeReply([]byte(`{"ok": false, "error": "KeyError: 'x'"}`))
	if err == nil || !strings.Contains(err.Error(), "KeyError: 'x'") {
		t.Errorf("got error %v, want the worker's KeyError", err)
	}
	if _, err = decodeReply([]byte("Traceback (most recent call last):\n")); err == nil {
		t.Error("a line that is not JSON was accepted")
	}
}

func TestArrays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.f64")
	arrays := []Array{
		{Name: "a", Shape: []int{1, 2}, Data: []float64{1, -0.5}},
		{Name: "b", Shape: []int{1}, Data: []float64{math.Inf(-1)}},
	}
	if err := WriteArrays(path, arrays); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := "000000000000f03f" + "000000000000e0bf" + "000000000000f0ff" // little-endian IEEE 754
	if got := fmt.Sprintf("%x", b); got != want {
		t.Errorf("file %s, want %s", got, want)
	}
	back, err := ReadArrays(path, arrays)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back) != fmt.Sprint(arrays) {
		t.Errorf("read back %v, want %v", back, arrays)
	}
	if _, err := ReadArrays(path, arrays[:1]); err == nil {
		t.Error("a file longer than its arrays was accepted")
	}
	if err := WriteArrays(path, []Array{{Name: "c", Shape: []int{2, 2}, Data: []float64{1}}}); err == nil {
		t.Error("an array shorter than its shape was written")
	}
}

func TestFakeWorker(t *testing.T) {
	t.Setenv(fakeEnv, "1")
	w, err := Start(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Hello.Torch != "fake" {
		t.Errorf("hello %+v, want torch fake", w.Hello)
	}
	in := []Array{{Name: "x", Shape: []int{2, 2}, Data: []float64{1, 2, 3, 4.5}}}
	methods, err := w.Load("p", "mlp", "float64", in)
	if err != nil || fmt.Sprint(methods) != "[sum]" {
		t.Fatalf("load: %v, %v; want [sum]", methods, err)
	}
	s, err := w.Run("p", "sum", 3)
	if err != nil || s != (Sample{PerCall: time.Millisecond, CPU: 2 * time.Millisecond, Value: 10.5}) {
		t.Errorf("run: %+v, %v; want 1ms, 2ms of CPU, 10.5", s, err)
	}
	out, err := w.Result("p")
	if err != nil || fmt.Sprint(out) != "[{x [2 2] [2 4 6 9]}]" {
		t.Errorf("result: %v, %v; want x doubled", out, err)
	}
	if _, err := w.call(request{Op: "nosuch"}); err == nil || !strings.Contains(err.Error(), "KeyError") {
		t.Errorf("unknown op: %v, want a KeyError", err)
	}
	if _, err := w.Ping(); err != nil {
		t.Error(err)
	}
}

func TestUnavailable(t *testing.T) {
	t.Setenv(fakeEnv, "noimport")
	_, err := Start(os.Args[0])
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "No module named 'torch'") {
		t.Errorf("got %v, want ErrUnavailable saying torch is missing", err)
	}
	_, err = Start(filepath.Join(t.TempDir(), "nosuch-python"))
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("got %v, want ErrUnavailable", err)
	}
}

// startPyTorch starts the real worker, or skips the test.
func startPyTorch(t *testing.T) *Worker {
	script, err := FindScript(".")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Start(DefaultPython, script)
	// PyTorch is an optional peer: CI installs none and never runs the tests
	// that start the worker; they run where torch imports (python3 -c 'import torch').
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("PyTorch is optional and not usable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestLaplacian checks PyTorch's three Laplacians of a small network of
// bench/tensorlap's form against central differences of the network
// computed here.
func TestLaplacian(t *testing.T) {
	w := startPyTorch(t)
	defer w.Close()
	const d, width, layers = 4, 5, 3
	r := rand.New(rand.NewPCG(1, 2))
	randn := func(name string, shape ...int) Array {
		a := Array{Name: name, Shape: shape}
		for range a.size() {
			a.Data = append(a.Data, 0.7*r.NormFloat64())
		}
		return a
	}
	var ws, bs []Array
	in := d
	for i := range layers {
		ws = append(ws, randn(fmt.Sprintf("W%d", i), in, width))
		bs = append(bs, randn(fmt.Sprintf("B%d", i), 1, width))
		in = width
	}
	out, x := randn("Out", 1, width), randn("x", 1, d)
	f := func(x []float64) float64 {
		h := x
		for i := range ws {
			next := make([]float64, width)
			for j := range next {
				s := bs[i].Data[j]
				for k, v := range h {
					s += v * ws[i].Data[k*width+j]
				}
				next[j] = math.Tanh(s)
			}
			h = next
		}
		var s float64
		for j, v := range h {
			s += v * out.Data[j]
		}
		return s
	}
	const step = 1e-4
	var want float64
	for i := range d {
		xp, xm := append([]float64{}, x.Data...), append([]float64{}, x.Data...)
		xp[i] += step
		xm[i] -= step
		want += (f(xp) - 2*f(x.Data) + f(xm)) / (step * step)
	}
	methods, err := w.Load("lap", "laplacian", "float64", append(append(ws, bs...), out, x))
	if err != nil || len(methods) != 3 {
		t.Fatalf("load: methods %v, %v; want three", methods, err)
	}
	for _, m := range methods {
		s, err := w.Run("lap", m, 2)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Value
		if !(math.Abs(got-want) <= 1e-5*max(1, math.Abs(want))) {
			t.Errorf("%s: got %v, want %v (central differences)", m, got, want)
		}
		t.Logf("%s: %v, central differences %v", m, got, want)
	}
}
