package lstm

import (
	"math"
	"math/rand/v2"
)

// HandGrad returns Loss(main, extra, state, seq) and adds its gradient with
// respect to main and extra to dmain and dextra (reverse-mode convention:
// the adjoints accumulate).
//
// It is backpropagation through time written by hand: the forward sweep
// records, for every step t and layer k, the new states h and s, tanh(s)
// and the four gates (7b values); the reverse sweep walks the steps
// backwards carrying the adjoints of each layer's h and s, and recovers a
// layer's inputs (the layer below's h, or the scaled input) and old states
// (the previous step's record, or the initial state) from the records.
// HandGrad panics if the lengths disagree.
func HandGrad(main, dmain, extra, dextra, state, seq []float64) float64 {
	b := len(extra) / 3
	if b == 0 || len(extra) != 3*b || len(main)%(8*b) != 0 ||
		len(state) != len(main)/4 || len(seq)%b != 0 ||
		len(dmain) != len(main) || len(dextra) != len(extra) {
		panic("lstm: bad dimensions")
	}
	c := len(seq) / b
	nl := len(main) / (8 * b)
	if c < 2 {
		return math.NaN() // −0/0, as Loss
	}
	steps := c - 1
	r := &handTape{
		b: b, nl: nl, steps: steps, state: state, seq: seq, inW: extra[:b],
		rec: make([]float64, steps*nl*nrec*b), x0: make([]float64, b),
		e: make([]float64, steps*b), sume: make([]float64, steps),
	}
	total := r.forward(main, extra[b:2*b], extra[2*b:])
	scale := -1 / float64(steps*b)
	r.reverse(main, dmain, extra[b:2*b], dextra, scale)
	return scale * total
}

// What HandGrad records of each step and layer, b values each.
const (
	rh = iota // new hidden state
	rs        // new cell state
	rt        // tanh of the new cell state
	rf        // forget gate
	ri        // input gate
	ro        // output gate
	rg        // candidate
	nrec
)

// handTape is what HandGrad's forward sweep records for its reverse
// sweep, and the sizes and inputs both read.
type handTape struct {
	b, nl, steps int
	state, seq   []float64
	inW          []float64
	rec          []float64 // the records of every step and layer
	x0           []float64 // the scaled input of the current step
	e            []float64 // exp(ŷ) per step
	sume         []float64 // Σ exp(ŷ) per step
}

// at returns record what of layer k at step t.
func (r *handTape) at(t, k, what int) []float64 {
	o := ((t*r.nl+k)*nrec + what) * r.b
	return r.rec[o : o+r.b]
}

// old returns layer k's h and s before step t.
func (r *handTape) old(t, k int) (h, s []float64) {
	b := r.b
	if t == 0 {
		return r.state[2*k*b : (2*k+1)*b], r.state[(2*k+1)*b : (2*k+2)*b]
	}
	return r.at(t-1, k, rh), r.at(t-1, k, rs)
}

// input sets x0 to step t's scaled input and returns it.
func (r *handTape) input(t int) []float64 {
	xt := r.seq[t*r.b : (t+1)*r.b]
	for j := range r.x0 {
		r.x0[j] = xt[j] * r.inW[j]
	}
	return r.x0
}

// forward runs the steps, recording the layers' states and gates, and
// returns Σ gold·(ŷ − lse) over the steps.
func (r *handTape) forward(main, outW, outB []float64) float64 {
	b, nl := r.b, r.nl
	ypred := make([]float64, b)
	total := 0.0
	for t := 0; t < r.steps; t++ {
		y := r.input(t)
		for k := 0; k < nl; k++ {
			w := main[2*k*4*b : (2*k+1)*4*b]
			bias := main[(2*k+1)*4*b : (2*k+2)*4*b]
			hOld, sOld := r.old(t, k)
			h, s, ts := r.at(t, k, rh), r.at(t, k, rs), r.at(t, k, rt)
			f, in, o, g := r.at(t, k, rf), r.at(t, k, ri), r.at(t, k, ro), r.at(t, k, rg)
			for j := 0; j < b; j++ {
				f[j] = sigmoid(y[j]*w[j] + bias[j])
				in[j] = sigmoid(hOld[j]*w[b+j] + bias[b+j])
				o[j] = sigmoid(y[j]*w[2*b+j] + bias[2*b+j])
				g[j] = math.Tanh(hOld[j]*w[3*b+j] + bias[3*b+j])
				s[j] = sOld[j]*f[j] + in[j]*g[j]
				ts[j] = math.Tanh(s[j])
				h[j] = o[j] * ts[j]
			}
			y = h
		}
		et := r.e[t*b : (t+1)*b]
		sum := 0.0
		for j := range ypred {
			ypred[j] = y[j]*outW[j] + outB[j]
			et[j] = math.Exp(ypred[j])
			sum += et[j]
		}
		r.sume[t] = sum
		lse := math.Log(sum + 2)
		gold := r.seq[(t+1)*b : (t+2)*b]
		for j := range gold {
			total += gold[j] * (ypred[j] - lse)
		}
	}
	return total
}

// reverse runs the steps backwards, adding the gradient of scale·total
// to dmain and dextra. hb[k], sb[k]: the adjoints of layer k's h and s
// after the step being processed, carried from the step after it.
func (r *handTape) reverse(main, dmain, outW, dextra []float64, scale float64) {
	b, nl := r.b, r.nl
	dinW, doutW, doutB := dextra[:b], dextra[b:2*b], dextra[2*b:]
	hb := make([]float64, nl*b)
	sb := make([]float64, nl*b)
	yb := make([]float64, b) // adjoint of the current layer's input
	for t := r.steps - 1; t >= 0; t-- {
		// ŷ_j enters total as gold_j·ŷ_j and through lse = log(Σ exp ŷ + 2).
		gold := r.seq[(t+1)*b : (t+2)*b]
		et := r.e[t*b : (t+1)*b]
		gsum := 0.0
		for _, v := range gold {
			gsum += v
		}
		rr := gsum / (r.sume[t] + 2)
		top := r.at(t, nl-1, rh)
		for j := 0; j < b; j++ {
			pb := scale * (gold[j] - rr*et[j]) // ∂loss/∂ŷ_j
			doutB[j] += pb
			doutW[j] += pb * top[j]
			yb[j] = pb * outW[j]
		}
		for k := nl - 1; k >= 0; k-- {
			var y []float64
			if k > 0 {
				y = r.at(t, k-1, rh)
			} else {
				y = r.input(t)
			}
			r.reverseCell(t, k, main, dmain, y, hb[k*b:(k+1)*b], sb[k*b:(k+1)*b], yb)
		}
		// y₀ = x_t⊙in_weight
		xt := r.seq[t*b : (t+1)*b]
		for j := 0; j < b; j++ {
			dinW[j] += yb[j] * xt[j]
		}
	}
}

// reverseCell is the reverse of layer k's cell at step t, whose input was
// y: from the adjoints of its new h (hbk, plus yb from the layer above)
// and s (sbk), it adds to the weights' and biases' adjoints and leaves
// those of its old h and s in hbk and sbk, and that of y in yb.
func (r *handTape) reverseCell(t, k int, main, dmain, y, hbk, sbk, yb []float64) {
	b := r.b
	w := main[2*k*4*b : (2*k+1)*4*b]
	dw := dmain[2*k*4*b : (2*k+1)*4*b]
	dbias := dmain[(2*k+1)*4*b : (2*k+2)*4*b]
	hOld, sOld := r.old(t, k)
	ts := r.at(t, k, rt)
	f, in, o, g := r.at(t, k, rf), r.at(t, k, ri), r.at(t, k, ro), r.at(t, k, rg)
	for j := 0; j < b; j++ {
		// h = o·tanh(s)
		hbj := hbk[j] + yb[j]
		ob := hbj * ts[j]
		sbj := sbk[j] + hbj*o[j]*(1-ts[j]*ts[j])
		// s = sOld·f + in·g
		fb, inb, gb := sbj*sOld[j], sbj*g[j], sbj*in[j]
		sbk[j] = sbj * f[j]
		// f = σ(y·w_f + b_f), o = σ(y·w_o + b_o)
		pf := fb * f[j] * (1 - f[j])
		po := ob * o[j] * (1 - o[j])
		dw[j] += pf * y[j]
		dbias[j] += pf
		dw[2*b+j] += po * y[j]
		dbias[2*b+j] += po
		yb[j] = pf*w[j] + po*w[2*b+j]
		// in = σ(hOld·w_i + b_i), g = tanh(hOld·w_c + b_c)
		pi := inb * in[j] * (1 - in[j])
		pg := gb * (1 - g[j]*g[j])
		dw[b+j] += pi * hOld[j]
		dbias[b+j] += pi
		dw[3*b+j] += pg * hOld[j]
		dbias[3*b+j] += pg
		hbk[j] = pi*w[b+j] + pg*w[3*b+j]
	}
}

// Data returns a reproducible problem as ADBench draws it: main (2l×4b),
// extra (3×b) and state (2l×b) uniform in [0, 1), and a sequence of c
// random bit vectors of width b.
func Data(l, c, b int, seed uint64) (main, extra, state, seq []float64) {
	rnd := rand.New(rand.NewPCG(seed, 5))
	uniform := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rnd.Float64()
		}
		return v
	}
	main, extra, state = uniform(2*l*4*b), uniform(3*b), uniform(2*l*b)
	seq = make([]float64, c*b)
	for i := range seq {
		seq[i] = float64(rnd.IntN(2))
	}
	return main, extra, state, seq
}
