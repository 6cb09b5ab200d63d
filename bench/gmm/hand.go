package gmm

import (
	"math"
	"math/rand/v2"
)

// HandGrad returns LogPosterior(alpha, mu, q, l, x, d) and adds its gradient
// with respect to alpha, mu, q and l to dalpha, dmu, dq and dl
// (reverse-mode convention: the adjoints accumulate).
//
// For each point it keeps, per component, z = x_i − mu_k and y = Q_k·z, and
// with the posterior weights w_k = exp(main_ik − lse_k main_ik) adds
//
//	∂main/∂alpha_k = 1
//	∂main/∂q_kj    = 1 − y_j·z_j·exp(q_kj)
//	∂main/∂Q_k[j][m] = −y_j·z_m         (m < j: the entries of l_k)
//	∂main/∂mu_k    = Q_kᵀ·y
//
// weighted by w_k; then the terms of −N·lse(alpha) and of the prior. The cost
// per point and component is about twice that of the function. HandGrad
// panics if the lengths of its arguments disagree.
func HandGrad(alpha, dalpha, mu, dmu, q, dq, l, dl, x []float64, d int) float64 {
	k := len(alpha)
	nl := d * (d - 1) / 2
	if d <= 0 || len(mu) != k*d || len(q) != k*d || len(l) != k*nl || len(x)%d != 0 ||
		len(dalpha) != k || len(dmu) != k*d || len(dq) != k*d || len(dl) != k*nl {
		panic("gmm: bad dimensions")
	}
	n := len(x) / d

	qdiag := make([]float64, k*d)
	sumq := make([]float64, k)
	for c := 0; c < k; c++ {
		for j := 0; j < d; j++ {
			qdiag[c*d+j] = math.Exp(q[c*d+j])
			sumq[c] += q[c*d+j]
		}
	}

	zs := make([]float64, k*d) // x_i − mu_k, per component
	ys := make([]float64, k*d) // Q_k·(x_i − mu_k)
	main := make([]float64, k)
	slse := 0.0
	for i := 0; i < n; i++ {
		xi := x[i*d : (i+1)*d]
		for c := 0; c < k; c++ {
			z, y := zs[c*d:(c+1)*d], ys[c*d:(c+1)*d]
			diag, low := qdiag[c*d:(c+1)*d], l[c*nl:(c+1)*nl]
			muc := mu[c*d : (c+1)*d]
			for j := range z {
				z[j] = xi[j] - muc[j]
				y[j] = diag[j] * z[j]
			}
			idx := 0
			for m := 0; m < d; m++ {
				zm := z[m]
				for j := m + 1; j < d; j++ {
					y[j] += low[idx] * zm
					idx++
				}
			}
			ss := 0.0
			for _, v := range y {
				ss += v * v
			}
			main[c] = alpha[c] + sumq[c] - 0.5*ss
		}
		lse := logsumexp(main)
		slse += lse

		for c := 0; c < k; c++ {
			w := math.Exp(main[c] - lse)
			z, y := zs[c*d:(c+1)*d], ys[c*d:(c+1)*d]
			diag, low := qdiag[c*d:(c+1)*d], l[c*nl:(c+1)*nl]
			dqc, dlc, dmuc := dq[c*d:(c+1)*d], dl[c*nl:(c+1)*nl], dmu[c*d:(c+1)*d]
			dalpha[c] += w
			// With y scaled by w: ∂/∂Q[j][m] = −y_j·z_m, ∂/∂z = −Qᵀy.
			for j := range y {
				y[j] *= w
				dqc[j] += w - y[j]*z[j]*diag[j]
				dmuc[j] += diag[j] * y[j]
			}
			idx := 0
			for m := 0; m < d; m++ {
				zm := z[m]
				acc := 0.0
				for j := m + 1; j < d; j++ {
					dlc[idx] -= y[j] * zm
					acc += low[idx] * y[j]
					idx++
				}
				dmuc[m] += acc
			}
		}
	}

	// −N·lse(alpha): ∂/∂alpha_k = −N·softmax(alpha)_k.
	lseAlpha := logsumexp(alpha)
	for c := 0; c < k; c++ {
		dalpha[c] -= float64(n) * math.Exp(alpha[c]-lseAlpha)
	}
	// The prior: P = −Σ_k [½γ²(Σ_j exp(2q_kj) + Σ l_k²) − m·Σ_j q_kj] + K·C.
	for i := range dq {
		dq[i] += wishM - gamma*gamma*qdiag[i]*qdiag[i]
	}
	for i := range dl {
		dl[i] -= gamma * gamma * l[i]
	}

	const logTwoPi = 1.8378770664093453 // log 2π
	return -float64(n*d)*0.5*logTwoPi + slse - float64(n)*lseAlpha +
		logWishartPrior(qdiag, sumq, l, d)
}

// Params holds a mixture's parameters, flat and row-major, and their
// layout in one vector: alpha, then mu, q and l.
type Params struct {
	Alpha, Mu, Q, L []float64
}

// Split returns views of the vector theta as the parameters of K
// components in d dimensions (theta must have length K(1 + 2d + d(d−1)/2)).
func Split(theta []float64, k, d int) Params {
	nl := d * (d - 1) / 2
	if len(theta) != k*(1+2*d+nl) {
		panic("gmm: bad parameter vector length")
	}
	return Params{
		Alpha: theta[:k],
		Mu:    theta[k : k+k*d],
		Q:     theta[k+k*d : k+2*k*d],
		L:     theta[k+2*k*d:],
	}
}

// Data returns a reproducible problem as ADBench draws it: alpha, q, l and
// the n points x standard normal, mu uniform in [0, 1). The parameters come
// flat in one vector (see Split).
func Data(k, d, n int, seed uint64) (theta, x []float64) {
	rnd := rand.New(rand.NewPCG(seed, 4))
	theta = make([]float64, k*(1+2*d+d*(d-1)/2))
	p := Split(theta, k, d)
	for i := range theta {
		theta[i] = rnd.NormFloat64()
	}
	for i := range p.Mu {
		p.Mu[i] = rnd.Float64()
	}
	x = make([]float64, n*d)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	return theta, x
}
