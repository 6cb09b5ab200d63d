"""torchbench: PyTorch as a measured peer of gadgen's benchmarks.

A long-running worker that gadgen's Go benchmark drivers start (package
bench/internal/torchworker), so that PyTorch's samples can be taken in the
same rounds as gadgen's. It speaks JSON lines: one request per line on
standard input, one reply per line on standard output. Every reply has
"ok": true, or "ok": false and "error". The requests:

  {"op": "hello"}
      -> {"torch", "functorch", "python", "threads"}: versions and settings.
  {"op": "load", "id", "problem", "dtype", "path", "arrays": [{"name", "shape"}]}
      Reads the arrays from path, raw little-endian float64 one after the
      other in the listed order, converts them to dtype ("float64" or
      "float32") and keeps them as problem id. problem is "laplacian"
      (arrays W0.., B0.., Out, x of bench/tensorlap) or "mlp" (W1, b1, W2,
      b2, W3, b3, X, Y of bench/peers, Y one-hot). -> {"methods": [names]}
  {"op": "run", "id", "method", "n"}
      Calls the method n times; the time per call is time.perf_counter()
      around the n calls, divided by n. -> {"seconds", "cpu_seconds",
      "value"}: cpu_seconds is the process's CPU time per call
      (time.process_time(), all threads: about seconds on one thread),
      value the last call's scalar (the Laplacian, or the loss).
  {"op": "result", "id", "path"}
      Writes the arrays of the last run of problem id (the MLP's gradient,
      in the order of its parameters) to path as raw little-endian float64.
      -> {"arrays": [{"name", "shape"}]}
  {"op": "drop", "id"}: forgets problem id.
  {"op": "ping"}: replies at once, to time the round trip.

PyTorch runs on one thread (torch.set_num_threads(1); the driver also sets
OMP_NUM_THREADS and OPENBLAS_NUM_THREADS to 1). When torch or functorch
cannot be imported, the reply to the first request says so and the worker
exits.
"""

import json
import sys
import time

try:
    import torch
    import functorch
except ImportError as e:  # reported to the driver, which skips PyTorch
    IMPORT_ERROR = "import torch, functorch: %s" % e
else:
    IMPORT_ERROR = None


def read_arrays(path, specs, dtype):
    """Returns the arrays of specs read from path, converted to dtype."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    flat = torch.frombuffer(data, dtype=torch.float64)
    out, off = {}, 0
    for s in specs:
        n = 1
        for d in s["shape"]:
            n *= d
        out[s["name"]] = flat[off:off + n].reshape(s["shape"]).clone().to(dtype)
        off += n
    if off != flat.numel():
        raise ValueError("%s holds %d numbers, the arrays %d" % (path, flat.numel(), off))
    return out


class Laplacian:
    """The Laplacian of bench/tensorlap's network at x:
    f(x) = Σ h_L ⊙ Out, h_i = tanh(h_{i-1}·W_i + b_i), h_0 = x [1, D]."""

    def __init__(self, a):
        layers = sum(1 for k in a if k.startswith("W"))
        self.ws = [a["W%d" % i] for i in range(layers)]
        self.bs = [a["B%d" % i] for i in range(layers)]
        self.out, self.x = a["Out"], a["x"]
        d = self.x.shape[1]
        self.basis = torch.eye(d, dtype=self.x.dtype).reshape(d, 1, d)
        self.methods = {
            "functorch.hessian": self.hessian,
            "vmap(jvp(grad))": self.hvps,
            "autograd.functional.hessian": self.autograd_hessian,
        }

    def f(self, x):
        h = x
        for w, b in zip(self.ws, self.bs):
            h = torch.tanh(h @ w + b)
        return (h * self.out).sum()

    def trace(self, h):
        d = self.x.shape[1]
        return h.reshape(d, d).diagonal().sum().item()

    def hessian(self):
        return self.trace(functorch.hessian(self.f)(self.x)), None

    def hvps(self):
        g = functorch.grad(self.f)
        hv = functorch.vmap(lambda v: functorch.jvp(g, (self.x,), (v,))[1])(self.basis)
        return self.trace(hv), None

    def autograd_hessian(self):
        return self.trace(torch.autograd.functional.hessian(self.f, self.x)), None


class MLP:
    """bench/peers's perceptron: z = tanh(tanh(X·W1 + b1)·W2 + b2)·W3 + b3,
    the mean softmax cross-entropy of z against the labels of one-hot Y."""

    names = ["W1", "b1", "W2", "b2", "W3", "b3"]

    def __init__(self, a):
        self.params = [a[k].requires_grad_() for k in self.names]
        self.x = a["X"]
        self.labels = a["Y"].argmax(dim=1)
        self.methods = {"loss": self.loss, "grad": self.grad}

    def forward(self):
        w1, b1, w2, b2, w3, b3 = self.params
        h = torch.tanh(self.x @ w1 + b1)
        h = torch.tanh(h @ w2 + b2)
        return torch.nn.functional.cross_entropy(h @ w3 + b3, self.labels)

    def loss(self):
        with torch.no_grad():
            return self.forward().item(), None

    def grad(self):
        for p in self.params:
            p.grad = None
        loss = self.forward()
        loss.backward()
        return loss.item(), [(n, p.grad) for n, p in zip(self.names, self.params)]


PROBLEMS = {"laplacian": Laplacian, "mlp": MLP}
DTYPES = {"float64": torch.float64, "float32": torch.float32} if IMPORT_ERROR is None else {}


class Worker:
    def __init__(self):
        self.problems = {}  # id -> problem
        self.last = {}  # id -> the arrays of the last run

    def hello(self, req):
        return {"torch": torch.__version__, "functorch": functorch.__version__,
                "python": sys.version.split()[0], "threads": torch.get_num_threads()}

    def load(self, req):
        p = PROBLEMS[req["problem"]](read_arrays(req["path"], req["arrays"], DTYPES[req["dtype"]]))
        self.problems[req["id"]] = p
        self.last.pop(req["id"], None)
        return {"methods": list(p.methods)}

    def run(self, req):
        p = self.problems[req["id"]]
        f = p.methods[req["method"]]
        n = req["n"]
        cpu, start = time.process_time(), time.perf_counter()
        for _ in range(n):
            value, arrays = f()
        seconds = (time.perf_counter() - start) / n
        cpu = (time.process_time() - cpu) / n
        self.last[req["id"]] = arrays
        return {"seconds": seconds, "cpu_seconds": cpu, "value": value}

    def result(self, req):
        arrays = self.last.get(req["id"])
        if arrays is None:
            raise ValueError("problem %s: its last run has no arrays" % req["id"])
        with open(req["path"], "wb") as f:
            for _, a in arrays:
                f.write(a.detach().to(torch.float64).contiguous().numpy().tobytes())
        return {"arrays": [{"name": n, "shape": list(a.shape)} for n, a in arrays]}

    def drop(self, req):
        self.problems.pop(req["id"], None)
        self.last.pop(req["id"], None)
        return {}

    def ping(self, req):
        return {}


def main():
    out = sys.stdout
    if IMPORT_ERROR is not None:
        sys.stdin.readline()
        out.write(json.dumps({"ok": False, "error": IMPORT_ERROR}) + "\n")
        out.flush()
        return 1
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    w = Worker()
    ops = {"hello": w.hello, "load": w.load, "run": w.run, "result": w.result,
           "drop": w.drop, "ping": w.ping}
    for line in sys.stdin:
        try:
            req = json.loads(line)
            rep = ops[req["op"]](req)
            rep["ok"] = True
        except Exception as e:  # reported to the driver, which fails the method
            rep = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        out.write(json.dumps(rep) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
