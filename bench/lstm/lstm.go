// Package lstm is suite S2c of gadgen's benchmarks: the loss of a
// multi-layer LSTM predicting a sequence of bit vectors, as ADBench defines
// it, its generated forward-mode derivative (lstm_grad.go) and a
// hand-written gradient to compare it with.
//
// With l layers and width b (ADBench uses b = 14), the parameters are
//
//	main   2l×4b  for layer k, row 2k holds the weights [w_f|w_i|w_o|w_c]
//	              and row 2k+1 the biases [b_f|b_i|b_o|b_c]
//	extra  3×b    [in_weight; out_weight; out_bias]
//
// and the data are an initial state (2l×b: per layer h, then s), which the
// loss copies and never modifies, and a sequence of c bit vectors (c×b).
package lstm

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// Loss returns ADBench's LSTM loss: for t = 0, …, c−2 it predicts ŷ from
// seq[t] and scores it against seq[t+1],
//
//	total += Σ_j seq[t+1]_j·(ŷ_j − log(Σ_j exp ŷ_j + 2)),
//
// and returns −total/((c−1)·b). The width b is len(extra)/3 and the number
// of layers len(main)/(8b). Loss panics if the lengths disagree.
//
//gad:jvp wrt=main,extra
//gad:grad wrt=main,extra
func Loss(main, extra, state, seq []float64) float64 {
	b := len(extra) / 3
	if b == 0 || len(extra) != 3*b || len(main)%(8*b) != 0 ||
		len(state) != len(main)/4 || len(seq)%b != 0 {
		panic("lstm: bad dimensions")
	}
	c := len(seq) / b
	s := make([]float64, len(state))
	copy(s, state)
	ypred := make([]float64, b)
	total := 0.0
	for t := 0; t < c-1; t++ {
		predict(ypred, main, extra, s, seq[t*b:(t+1)*b])
		lse := logsumexp2(ypred)
		ygold := seq[(t+1)*b : (t+2)*b]
		for j := range ygold {
			total += ygold[j] * (ypred[j] - lse)
		}
	}
	return -total / float64((c-1)*b)
}

// predict runs the stacked cells on the input x, updating the state s, and
// stores the prediction into dst.
func predict(dst, main, extra, s, x []float64) {
	b := len(x)
	inW, outW, outB := extra[:b], extra[b:2*b], extra[2*b:3*b]
	for j := range dst {
		dst[j] = x[j] * inW[j]
	}
	y := dst
	for k := 0; k < len(s)/(2*b); k++ {
		w := main[2*k*4*b : (2*k+1)*4*b]
		bias := main[(2*k+1)*4*b : (2*k+2)*4*b]
		h := s[2*k*b : (2*k+1)*b]
		cell(h, s[(2*k+1)*b:(2*k+2)*b], w, bias, y)
		y = h
	}
	for j := range dst {
		dst[j] = y[j]*outW[j] + outB[j]
	}
}

// cell advances one LSTM layer with hidden state h and cell state s on the
// input y, updating h and s in place. y may be the slice that predict
// writes its output into, but not h.
func cell(h, s, w, bias, y []float64) {
	b := len(h)
	for j := 0; j < b; j++ {
		f := sigmoid(y[j]*w[j] + bias[j])
		in := sigmoid(h[j]*w[b+j] + bias[b+j])
		o := sigmoid(y[j]*w[2*b+j] + bias[2*b+j])
		g := math.Tanh(h[j]*w[3*b+j] + bias[3*b+j])
		s[j] = s[j]*f + in*g
		h[j] = o * math.Tanh(s[j])
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logsumexp2 returns log(Σ exp(v_j) + 2), ADBench's LSTM normalizer.
func logsumexp2(v []float64) float64 {
	sum := 0.0
	for _, e := range v {
		sum += math.Exp(e)
	}
	return math.Log(sum + 2)
}
