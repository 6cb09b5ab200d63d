// Package gmm is suite S2a of gadgen's benchmarks: the log-posterior of a
// Gaussian mixture model with a Wishart prior, as ADBench defines it, its
// generated forward-mode derivative (gmm_grad.go) and a hand-written
// gradient to compare it with.
//
// A mixture of K components in D dimensions has parameters
//
//	alpha  K      mixture weights (log, unnormalized)
//	mu     K×D    means, row-major
//	q      K×D    log-diagonals of the inverse Cholesky factors Q_k
//	l      K×D(D−1)/2  their strictly-lower entries, column by column
//
// and the data x is N×D, row-major. Q_k[j][j] = exp(q[k][j]), and the
// strictly-lower entries of Q_k are filled column by column from l_k:
// Q_k[i+1][0], …, Q_k[D−1][0], Q_k[2][1], ….
//
// The Wishart prior has γ = 1 and m = 0 (ADBench's values); the sign
// convention is that of the suite table in bench/README.md: L includes
// P = −Σ_k ½γ²(…) + K·C.
package gmm

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// Parameters of the Wishart prior.
const (
	gamma = 1.0
	wishM = 0
)

// LogPosterior returns
//
//	L = −N·D·½·log 2π + Σ_i lse_k(main_ik) − N·lse(alpha) + P,
//	main_ik = alpha_k + Σ_j q_kj − ½‖Q_k(x_i − mu_k)‖²,
//
// with P the log Wishart prior, for data x of N points of dimension d. K is
// len(alpha). LogPosterior panics if the lengths of mu, q, l and x do not
// agree with K and d.
//
//gad:jvp wrt=alpha,mu,q,l
//gad:grad wrt=alpha,mu,q,l
func LogPosterior(alpha, mu, q, l, x []float64, d int) float64 {
	k := len(alpha)
	nl := d * (d - 1) / 2
	if d <= 0 || len(mu) != k*d || len(q) != k*d || len(l) != k*nl || len(x)%d != 0 {
		panic("gmm: bad dimensions")
	}
	n := len(x) / d

	// Per component: the diagonals of Q_k and the sums Σ_j q_kj.
	qdiag := make([]float64, k*d)
	sumq := make([]float64, k)
	for c := 0; c < k; c++ {
		for j := 0; j < d; j++ {
			qdiag[c*d+j] = math.Exp(q[c*d+j])
			sumq[c] += q[c*d+j]
		}
	}

	xc := make([]float64, d)
	qx := make([]float64, d)
	main := make([]float64, k)
	slse := 0.0
	for i := 0; i < n; i++ {
		for c := 0; c < k; c++ {
			for j := 0; j < d; j++ {
				xc[j] = x[i*d+j] - mu[c*d+j]
			}
			qtimesx(qx, qdiag[c*d:(c+1)*d], l[c*nl:(c+1)*nl], xc)
			main[c] = alpha[c] + sumq[c] - 0.5*sqnorm(qx)
		}
		slse += logsumexp(main)
	}

	const logTwoPi = 1.8378770664093453 // log 2π
	return -float64(n*d)*0.5*logTwoPi + slse - float64(n)*logsumexp(alpha) +
		logWishartPrior(qdiag, sumq, l, d)
}

// qtimesx stores Q·x into dst, for the lower-triangular Q with diagonal
// diag and strictly-lower entries low, column by column.
func qtimesx(dst, diag, low, x []float64) {
	d := len(x)
	for j := 0; j < d; j++ {
		dst[j] = diag[j] * x[j]
	}
	idx := 0
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			dst[j] += low[idx] * x[i]
			idx++
		}
	}
}

// logWishartPrior returns P = −Σ_k [½γ²(‖exp(q_k)‖² + ‖l_k‖²) − m·Σ_j q_kj] + K·C.
func logWishartPrior(qdiag, sumq, l []float64, d int) float64 {
	k := len(sumq)
	nl := d * (d - 1) / 2
	np := float64(d + wishM + 1)
	c := np*float64(d)*(math.Log(gamma)-0.5*math.Ln2) - logMultiGamma(0.5*np, d)
	out := 0.0
	for ck := 0; ck < k; ck++ {
		frob := sqnorm(qdiag[ck*d:(ck+1)*d]) + sqnorm(l[ck*nl:(ck+1)*nl])
		out -= 0.5*gamma*gamma*frob - wishM*sumq[ck]
	}
	return out + float64(k)*c
}

// logMultiGamma returns the log of the multivariate gamma function,
// log Γ_d(a) = ¼d(d−1)·log π + Σ_{j=1..d} log Γ(a + ½(1−j)).
func logMultiGamma(a float64, d int) float64 {
	out := 0.25 * float64(d*(d-1)) * math.Log(math.Pi)
	for j := 1; j <= d; j++ {
		lg, _ := math.Lgamma(a + 0.5*float64(1-j))
		out += lg
	}
	return out
}

// logsumexp returns log Σ exp(v_i), computed stably.
func logsumexp(v []float64) float64 {
	m := math.Inf(-1)
	for _, e := range v {
		m = max(m, e)
	}
	sum := 0.0
	for _, e := range v {
		sum += math.Exp(e - m)
	}
	return math.Log(sum) + m
}

// sqnorm returns Σ v_i².
func sqnorm(v []float64) float64 {
	sum := 0.0
	for _, e := range v {
		sum += e * e
	}
	return sum
}
