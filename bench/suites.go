package bench

// This file lists the suites of README.md's suite table, with their sizes,
// each objective flattened into Problems.

import (
	"fmt"
	"math/rand/v2"

	"github.com/gadgen/gadgen/bench/gmm"
	"github.com/gadgen/gadgen/bench/gp"
	"github.com/gadgen/gadgen/bench/higher"
	"github.com/gadgen/gadgen/bench/logsumexp"
	"github.com/gadgen/gadgen/bench/lstm"
	"github.com/gadgen/gadgen/bench/mlp"
	"github.com/gadgen/gadgen/bench/normalize"
	"github.com/gadgen/gadgen/bench/ode"
	"github.com/gadgen/gadgen/bench/rosenbrock"
	"github.com/gadgen/gadgen/bench/tensormlp"
	"github.com/gadgen/gadgen/tensorops"
)

// seed seeds every data set, so that runs compare.
const seed = 1

// Suites returns the suites of README.md's suite table that package bench
// runs, in order: S1–S3, and S4's HVP.
func Suites() []*Suite {
	return []*Suite{rosenbrockSuite(), logsumexpSuite(), odeSuite(), gmmSuite(), lstmSuite(),
		mlpSuite(), mlpFlatSuite(), gpSuite(), normalizeSuite(), hvpSuite(), tensorMLPSuite()}
}

func rosenbrockSuite() *Suite {
	s := &Suite{ID: "S1a", Name: "Rosenbrock", Target: "JVP ≤ 2.5×, gradient ≤ 2.5×, HVP ≤ 3× the gradient"}
	add := func(n int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: "n=" + count(n), N: float64(n), Tier: tier, Make: func() *Problem {
			return &Problem{
				X:      rosenbrock.Point(n, seed),
				F:      rosenbrock.Rosenbrock,
				JVP:    rosenbrock.RosenbrockJVP,
				Grad:   rosenbrock.RosenbrockGrad,
				HVP:    higher.RosenbrockHVP,
				JVPO0:  rosenbrock.RosenbrockJVPO0,
				GradO0: rosenbrock.RosenbrockGradO0,
				Hand:   rosenbrock.HandGrad,
				FD:     withFD,
			}
		}})
	}
	add(100, Quick, true)
	add(1e3, Small, true)
	add(1e4, Medium, false)
	add(1e5, Large, false)
	add(1e6, Large, false)
	return s
}

func logsumexpSuite() *Suite {
	s := &Suite{ID: "S1b", Name: "logsumexp", Target: "≤ 2.2×"}
	add := func(n int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: "n=" + count(n), N: float64(n), Tier: tier, Make: func() *Problem {
			return &Problem{
				X:      logsumexp.Point(n, seed),
				F:      logsumexp.LogSumExp,
				JVP:    logsumexp.LogSumExpJVP,
				Grad:   logsumexp.LogSumExpGrad,
				JVPO0:  logsumexp.LogSumExpJVPO0,
				GradO0: logsumexp.LogSumExpGradO0,
				Hand:   logsumexp.HandGrad,
				FD:     withFD,
			}
		}})
	}
	add(250, Quick, true)
	for i, n := 0, 2500; n <= 1280000; i, n = i+1, 2*n {
		tier := Large
		switch {
		case n <= 5000:
			tier = Small
		case n <= 20000:
			tier = Medium
		}
		add(n, tier, i == 0)
	}
	return s
}

func odeSuite() *Suite {
	s := &Suite{ID: "S1c", Name: "ODE (RK4)", Target: "≤ 3.5×"}
	add := func(n, steps int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: fmt.Sprintf("n=%s s=%d", count(n), steps), N: float64(n * steps), Tier: tier, Make: func() *Problem {
			return &Problem{
				X: ode.Point(n, seed),
				F: func(x []float64) float64 { return ode.Final(x, steps) },
				JVP: func(x, v []float64) (float64, float64) {
					return ode.FinalJVP(x, v, steps)
				},
				Grad: func(x, dx []float64) float64 { return ode.FinalGrad(x, dx, steps) },
				JVPO0: func(x, v []float64) (float64, float64) {
					return ode.FinalJVPO0(x, v, steps)
				},
				GradO0: func(x, dx []float64) float64 { return ode.FinalGradO0(x, dx, steps) },
				Hand:   func(x, dx []float64) float64 { return ode.HandGrad(x, dx, steps) },
				FD:     withFD,
			}
		}})
	}
	add(8, 4, Quick, true)
	add(10, 4, CheckOnly, true)
	add(60, 20, CheckOnly, true)
	add(1e3, 1, Small, true)
	add(1e3, 10, Small, true)
	add(1e3, 100, Medium, false)
	add(1e4, 1, Medium, false)
	add(1e4, 10, Large, false)
	add(1e4, 100, Large, false)
	return s
}

func gmmSuite() *Suite {
	s := &Suite{ID: "S2a", Name: "GMM", Target: "median ≤ 3×"}
	add := func(d, k, n int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: fmt.Sprintf("D=%d K=%d", d, k), N: float64(d * d * k), Tier: tier, Make: func() *Problem {
			theta, x := gmm.Data(k, d, n, seed)
			return &Problem{
				X: theta,
				F: func(theta []float64) float64 {
					p := gmm.Split(theta, k, d)
					return gmm.LogPosterior(p.Alpha, p.Mu, p.Q, p.L, x, d)
				},
				JVP: func(theta, v []float64) (float64, float64) {
					p, dp := gmm.Split(theta, k, d), gmm.Split(v, k, d)
					return gmm.LogPosteriorJVP(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
				},
				Grad: func(theta, g []float64) float64 {
					p, dp := gmm.Split(theta, k, d), gmm.Split(g, k, d)
					return gmm.LogPosteriorGrad(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
				},
				JVPO0: func(theta, v []float64) (float64, float64) {
					p, dp := gmm.Split(theta, k, d), gmm.Split(v, k, d)
					return gmm.LogPosteriorJVPO0(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
				},
				GradO0: func(theta, g []float64) float64 {
					p, dp := gmm.Split(theta, k, d), gmm.Split(g, k, d)
					return gmm.LogPosteriorGradO0(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
				},
				Hand: func(theta, g []float64) float64 {
					p, dp := gmm.Split(theta, k, d), gmm.Split(g, k, d)
					return gmm.HandGrad(p.Alpha, dp.Alpha, p.Mu, dp.Mu, p.Q, dp.Q, p.L, dp.L, x, d)
				},
				FD: withFD,
			}
		}})
	}
	add(2, 3, 20, Quick, true)
	const n = 1000 // points
	for _, d := range []int{2, 10, 20, 32, 64} {
		for _, k := range []int{5, 10, 25, 50, 100} {
			tier := Large
			switch {
			case d <= 10:
				tier = Small
			case d <= 20:
				tier = Medium
			}
			add(d, k, n, tier, d == 2 && k <= 25 || d == 10 && k == 5)
		}
	}
	return s
}

func lstmSuite() *Suite {
	s := &Suite{ID: "S2c", Name: "LSTM", Target: "≤ 3×"}
	const b = 14
	add := func(l, c int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: fmt.Sprintf("l=%d c=%d", l, c), N: float64(l * c), Tier: tier, Make: func() *Problem {
			main, extra, state, seq := lstm.Data(l, c, b, seed)
			m := len(main)
			return &Problem{
				X: append(main, extra...),
				F: func(theta []float64) float64 { return lstm.Loss(theta[:m], theta[m:], state, seq) },
				JVP: func(theta, v []float64) (float64, float64) {
					return lstm.LossJVP(theta[:m], v[:m], theta[m:], v[m:], state, seq)
				},
				Grad: func(theta, g []float64) float64 {
					return lstm.LossGrad(theta[:m], g[:m], theta[m:], g[m:], state, seq)
				},
				JVPO0: func(theta, v []float64) (float64, float64) {
					return lstm.LossJVPO0(theta[:m], v[:m], theta[m:], v[m:], state, seq)
				},
				GradO0: func(theta, g []float64) float64 {
					return lstm.LossGradO0(theta[:m], g[:m], theta[m:], g[m:], state, seq)
				},
				Hand: func(theta, g []float64) float64 {
					return lstm.HandGrad(theta[:m], g[:m], theta[m:], g[m:], state, seq)
				},
				FD: withFD,
			}
		}})
	}
	add(1, 8, Quick, true)
	add(2, 1024, Small, true)
	add(2, 4096, Medium, false)
	add(4, 1024, Medium, false)
	add(4, 4096, Large, false)
	add(6, 1024, Large, false)
	add(6, 4096, Large, false)
	return s
}

// An mlpData is one S2d problem: the data, and adapters from functions of
// a network (and its shadow) to functions of the parameter vector.
type mlpData struct {
	in, hidden, out int
	x               []float64
	labels          []int
}

func (d mlpData) split(theta []float64) *mlp.Net { return mlp.Split(theta, d.in, d.hidden, d.out) }

func (d mlpData) jvp(f func(n, dn *mlp.Net, x []float64, labels []int) (float64, float64)) func(theta, v []float64) (float64, float64) {
	return func(theta, v []float64) (float64, float64) { return f(d.split(theta), d.split(v), d.x, d.labels) }
}

func (d mlpData) grad(f func(n, dn *mlp.Net, x []float64, labels []int) float64) func(theta, g []float64) float64 {
	return func(theta, g []float64) float64 { return f(d.split(theta), d.split(g), d.x, d.labels) }
}

// mlpSizes adds S2d's sizes to s: a small network for the quick runs (and
// central differences), and the 784-256-10 network on a batch of 64.
// problem returns the problem of the data d at theta.
func mlpSizes(s *Suite, problem func(d mlpData, theta []float64) *Problem) {
	add := func(in, hidden, out, batch int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: fmt.Sprintf("%d-%d-%d b=%d", in, hidden, out, batch),
			N: float64(in * hidden * batch), Tier: tier, Make: func() *Problem {
				theta, x, labels := mlp.Data(in, hidden, out, batch, seed)
				p := problem(mlpData{in: in, hidden: hidden, out: out, x: x, labels: labels}, theta)
				p.FD = withFD
				return p
			}})
	}
	add(20, 16, 5, 4, Quick, true)
	add(mlp.In, mlp.Hidden, mlp.Out, mlp.Batch, Small, false)
}

// mlpSuite is S2d as a Go user writes it: Net.Loss, a method of the struct
// of weights.
func mlpSuite() *Suite {
	s := &Suite{ID: "S2d", Name: "MLP (Net.Loss)", Target: "≤ 2.5×, memory ≤ 4×"}
	mlpSizes(s, func(d mlpData, theta []float64) *Problem {
		return &Problem{
			X:      theta,
			F:      func(theta []float64) float64 { return d.split(theta).Loss(d.x, d.labels) },
			JVP:    d.jvp((*mlp.Net).LossJVP),
			JVPO0:  d.jvp(mlp.LossJVPO0),
			Grad:   d.grad((*mlp.Net).LossGrad),
			GradO0: d.grad(mlp.LossGradO0),
			Hand:   d.grad(mlp.HandGrad),
		}
	})
	return s
}

// mlpFlatSuite is S2d written with flat weight slices and three-clause loops:
// LossFlat, the weights as parameters. The function it is timed against is
// LossFlat.
func mlpFlatSuite() *Suite {
	s := &Suite{ID: "S2d-flat", Name: "MLP (LossFlat)", Target: "≤ 2.5×, memory ≤ 4×",
		Aside: "S2d's loss, rewritten with flat weight slices and three-clause loops"}
	mlpSizes(s, func(d mlpData, theta []float64) *Problem {
		return &Problem{
			X: theta,
			F: func(theta []float64) float64 {
				n := d.split(theta)
				return mlp.LossFlat(n.W1, n.B1, n.W2, n.B2, d.x, d.labels)
			},
			JVP:    d.jvp(mlp.FlatJVP(mlp.LossFlatJVP)),
			Grad:   d.grad(mlp.FlatGrad(mlp.LossFlatGrad)),
			JVPO0:  d.jvp(mlp.FlatJVP(mlp.LossFlatJVPO0)),
			GradO0: d.grad(mlp.FlatGrad(mlp.LossFlatGradO0)),
			Hand:   d.grad(mlp.HandGrad),
		}
	})
	return s
}

// gpSuite is S2e, the Gaussian-process likelihood, on points in the unit
// square. The gradient has three components, so central differences
// (6 evaluations) are timed at every size.
func gpSuite() *Suite {
	s := &Suite{ID: "S2e", Name: "GP likelihood", Target: "≤ 4× time and memory"}
	const d = 2
	add := func(n int, tier Tier) {
		s.Sizes = append(s.Sizes, Size{Label: fmt.Sprintf("n=%d", n), N: float64(n), Tier: tier, Make: func() *Problem {
			theta, x, y := gp.Data(n, d, seed)
			return &Problem{
				X: theta,
				F: func(theta []float64) float64 { return gp.NLL(theta, x, y) },
				JVP: func(theta, v []float64) (float64, float64) {
					return gp.NLLJVP(theta, v, x, y)
				},
				Grad: func(theta, g []float64) float64 { return gp.NLLGrad(theta, g, x, y) },
				JVPO0: func(theta, v []float64) (float64, float64) {
					return gp.NLLJVPO0(theta, v, x, y)
				},
				GradO0: func(theta, g []float64) float64 { return gp.NLLGradO0(theta, g, x, y) },
				Hand:   func(theta, g []float64) float64 { return gp.HandGrad(theta, g, x, y) },
				FD:     true,
			}
		}})
	}
	add(10, Quick)
	add(100, Small)
	add(200, Small)
	add(400, Medium)
	return s
}

// hvpSuite is S4's tanh MLP (bench/higher), D = 50 → 768 → 768 → 512 → 512
// → 1 at batch 1, with its gradient, JVP and one Hessian-vector product by
// forward over reverse: the HVP column is its cost in function calls. The
// Laplacian methods of S4 are timed by bench/higher's benchmarks.
func hvpSuite() *Suite {
	s := &Suite{ID: "S4", Name: "MLP HVP", Target: "HVP ≤ 4×",
		Aside: "higher order: S4's network, for the cost of one forward-over-reverse HVP"}
	add := func(d, h1, h2, h3, h4 int, tier Tier) {
		label := fmt.Sprintf("%d-%d-%d-%d-%d-1", d, h1, h2, h3, h4)
		s.Sizes = append(s.Sizes, Size{Label: label, N: float64(d*h1 + h1*h2 + h2*h3 + h3*h4), Tier: tier, Make: func() *Problem {
			m := higher.NewMLP(d, h1, h2, h3, h4, seed)
			rnd := rand.New(rand.NewPCG(seed, 13))
			x := make([]float64, m.D)
			for i := range x {
				x[i] = 2*rnd.Float64() - 1
			}
			return &Problem{
				X:    x,
				F:    m.Value,
				JVP:  m.ValueJVP,
				Grad: m.ValueGrad,
				HVP:  m.ValueHVP,
				Hand: m.HandGrad,
				FD:   true,
			}
		}})
	}
	add(4, 7, 6, 5, 3, Quick)
	add(50, 768, 768, 512, 512, Small)
	return s
}

func normalizeSuite() *Suite {
	s := &Suite{ID: "S3", Name: "normalize", Target: "gradient time ~ n^≤1.1 (≈ n² without optimization)", Scaling: true}
	add := func(n int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: "n=" + count(n), N: float64(n), Tier: tier, Make: func() *Problem {
			x, c := normalize.Data(n, seed)
			return &Problem{
				X: x,
				F: func(x []float64) float64 { return normalize.Loss(x, c) },
				JVP: func(x, v []float64) (float64, float64) {
					return normalize.LossJVP(x, v, c)
				},
				Grad: func(x, dx []float64) float64 { return normalize.LossGrad(x, dx, c) },
				JVPO0: func(x, v []float64) (float64, float64) {
					return normalize.LossJVPO0(x, v, c)
				},
				GradO0: func(x, dx []float64) float64 { return normalize.LossGradO0(x, dx, c) },
				Hand:   func(x, dx []float64) float64 { return normalize.HandGrad(x, dx, c) },
				FD:     withFD,
			}
		}})
	}
	add(10, Quick, true)
	add(40, Quick, true)
	add(100, Small, true)
	add(1e3, Small, false)
	add(1e4, Medium, false)
	add(1e5, Huge, false)
	return s
}

// count formats a size compactly: 1000 → "1e3", 2500 → "2500".
func count(n int) string {
	e := 0
	m := n
	for m >= 10 && m%10 == 0 {
		m /= 10
		e++
	}
	if e >= 3 && m < 10 {
		return fmt.Sprintf("%de%d", m, e)
	}
	return fmt.Sprint(n)
}

// tensorMLPSuite is S5 in float64: the perceptron of package tensormlp on
// gadgen's tensor runtime, its parameters views of the vector X (no copy),
// the gradient accumulated into views of the gradient vector. Float32 and
// the pure-Go BLAS are in tensormlp's BenchmarkS5.
func tensorMLPSuite() *Suite {
	s := &Suite{ID: "S5", Name: "MLP on tensorops (float64)", Target: "gradient ≤ 2.5× forward",
		Aside: "784-256-256-10 written with tensorops; GEMM through OpenBLAS when it loads"}
	add := func(in, hidden, out, batch int, tier Tier, withFD bool) {
		s.Sizes = append(s.Sizes, Size{Label: fmt.Sprintf("%d-%d-%d-%d b=%d", in, hidden, hidden, out, batch),
			N: float64(in * hidden * batch), Tier: tier, Make: func() *Problem {
				m, x, y := tensormlp.New(tensorops.Float64, in, hidden, out, batch, seed)
				view := func(theta []float64) *tensormlp.MLP { return tensormlp.View(theta, in, hidden, out) }
				return &Problem{
					X: tensormlp.Flat(m),
					F: func(theta []float64) float64 { return tensormlp.Loss(view(theta), x, y) },
					JVP: func(theta, v []float64) (float64, float64) {
						return tensormlp.LossJVP(view(theta), view(v), x, y)
					},
					Grad: func(theta, g []float64) float64 { return tensormlp.LossGrad(view(theta), view(g), x, y) },
					Hand: func(theta, g []float64) float64 { return tensormlp.HandGrad(view(theta), view(g), x, y) },
					FD:   withFD,
				}
			}})
	}
	add(20, 16, 5, 4, Quick, true)
	add(tensormlp.In, tensormlp.Hidden, tensormlp.Out, tensormlp.Batch, Small, false)
	return s
}
