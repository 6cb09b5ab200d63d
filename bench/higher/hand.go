package higher

import "math"

// HandGrad returns m.Value(x) and adds its gradient with respect to x to
// dx (reverse-mode convention: the adjoints accumulate): backpropagation
// written by hand, keeping the four hidden vectors of the forward pass.
func (m *MLP) HandGrad(x, dx []float64) float64 {
	type layer struct {
		w, b []float64
		in   int
	}
	layers := []layer{{m.W1, m.B1, m.D}, {m.W2, m.B2, m.H1}, {m.W3, m.B3, m.H2}, {m.W4, m.B4, m.H3}}
	hs := make([][]float64, len(layers)+1) // hs[0] = x, hs[l+1] = tanh(layer l)
	hs[0] = x
	for l, ly := range layers {
		in := hs[l]
		out := make([]float64, len(ly.b))
		for i := range out {
			w := ly.w[i*ly.in : (i+1)*ly.in]
			s := ly.b[i]
			for j, v := range in {
				s += w[j] * v
			}
			out[i] = math.Tanh(s)
		}
		hs[l+1] = out
	}
	top := hs[len(layers)]
	y := m.B5
	for j, v := range top {
		y += m.W5[j] * v
	}

	// Backward: hb is the adjoint of the current layer's output.
	hb := append([]float64(nil), m.W5...)
	for l := len(layers) - 1; l >= 0; l-- {
		ly, out, in := layers[l], hs[l+1], hs[l]
		inb := make([]float64, len(in))
		for i, h := range out {
			sb := hb[i] * (1 - h*h)
			w := ly.w[i*ly.in : (i+1)*ly.in]
			for j, wij := range w {
				inb[j] += sb * wij
			}
		}
		hb = inb
	}
	for j, v := range hb {
		dx[j] += v
	}
	return y
}
