package gmm

import "github.com/gadgen/gadgen/bench/gradbench/protocol"

// Input is the eval's Input (without GradBench's Runs): the parameters in
// rows, one per component.
type Input struct {
	D     int         `json:"d"`
	K     int         `json:"k"`
	N     int         `json:"n"`
	X     [][]float64 `json:"x"`
	M     int         `json:"m"`
	Gamma float64     `json:"gamma"`
	Alpha []float64   `json:"alpha"`
	Mu    [][]float64 `json:"mu"`
	Q     [][]float64 `json:"q"`
	L     [][]float64 `json:"l"`
}

// problem is an Input with its matrices flattened, row-major, as
// LogPosterior takes them.
type problem struct {
	alpha, mu, q, l, x []float64
	d, m               int
	gamma              float64
}

func flatten(in *Input) problem {
	return problem{
		alpha: in.Alpha,
		mu:    protocol.Flat(in.Mu),
		q:     protocol.Flat(in.Q),
		l:     protocol.Flat(in.L),
		x:     protocol.Flat(in.X),
		d:     in.D,
		m:     in.M,
		gamma: in.Gamma,
	}
}

// rows cuts a into k rows of equal length.
func rows(a []float64, k int) [][]float64 {
	out := make([][]float64, k)
	n := len(a) / max(k, 1)
	for i := range out {
		out[i] = a[i*n : (i+1)*n]
	}
	return out
}

// Module is the gmm module: "objective" is LogPosterior, "jacobian" its
// gradient with respect to alpha, mu, q and l, in the input's shape.
var Module = protocol.Module{
	"objective": protocol.Decoding(func(in *Input) protocol.Prepared {
		p := flatten(in)
		return protocol.Value(func() float64 {
			return LogPosterior(p.alpha, p.mu, p.q, p.l, p.x, p.d, p.m, p.gamma)
		})
	}),
	"jacobian": protocol.Decoding(func(in *Input) protocol.Prepared {
		p := flatten(in)
		alpha := make([]float64, len(p.alpha))
		mu := make([]float64, len(p.mu))
		q := make([]float64, len(p.q))
		l := make([]float64, len(p.l))
		return protocol.Prepared{
			Run: func() {
				clear(alpha)
				clear(mu)
				clear(q)
				clear(l)
				LogPosteriorGrad(p.alpha, alpha, p.mu, mu, p.q, q, p.l, l, p.x, p.d, p.m, p.gamma)
			},
			Output: func() any {
				return map[string]any{
					"alpha": alpha,
					"mu":    rows(mu, len(alpha)),
					"q":     rows(q, len(alpha)),
					"l":     rows(l, len(alpha)),
				}
			},
		}
	}),
}
