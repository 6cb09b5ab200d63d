// Package gp is suite S2e of gadgen's benchmarks: the negative log
// marginal likelihood of a Gaussian process with a squared-exponential
// kernel, computed through a hand-written Cholesky factorization, its
// generated derivatives (gp_grad.go) and the textbook gradient to compare
// them with (HandGrad).
//
// The hyperparameters are theta = (log ℓ, log σf², log σn²): the kernel is
//
//	k(xᵢ, xⱼ) = σf²·exp(−‖xᵢ − xⱼ‖²/(2ℓ²)) + σn²·[i = j]
//
// over n points of dimension d, stored row-major in x (n×d).
package gp

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// NLL returns the negative log marginal likelihood of the targets y at the
// points x (len(x) = n·d, n = len(y)):
//
//	½·yᵀα + Σᵢ log Lᵢᵢ + (n/2)·log 2π,  α = K⁻¹y,  K = L·Lᵀ
//
// It builds K (n×n, row-major), factors it in place with the textbook
// Cholesky triple loop, and solves L·z = y and Lᵀ·α = z by substitution.
// NLL panics if len(x) is not a multiple of len(y); its result is NaN if K
// is not positive definite.
//
//gad:jvp wrt=theta
//gad:grad wrt=theta
func NLL(theta, x, y []float64) float64 {
	n := len(y)
	if n == 0 || len(x)%n != 0 {
		panic("gp: bad dimensions")
	}
	d := len(x) / n
	ell := math.Exp(theta[0])
	sf2 := math.Exp(theta[1])
	sn2 := math.Exp(theta[2])

	// The kernel matrix; only its lower triangle is read below.
	k := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			r2 := 0.0
			for c := 0; c < d; c++ {
				t := x[i*d+c] - x[j*d+c]
				r2 += t * t
			}
			k[i*n+j] = sf2 * math.Exp(-0.5*r2/(ell*ell))
		}
		k[i*n+i] = sf2 + sn2
	}

	// Cholesky, in place: the lower triangle of k becomes L.
	for j := 0; j < n; j++ {
		s := k[j*n+j]
		for c := 0; c < j; c++ {
			s -= k[j*n+c] * k[j*n+c]
		}
		ljj := math.Sqrt(s)
		k[j*n+j] = ljj
		for i := j + 1; i < n; i++ {
			s := k[i*n+j]
			for c := 0; c < j; c++ {
				s -= k[i*n+c] * k[j*n+c]
			}
			k[i*n+j] = s / ljj
		}
	}

	// L·z = y, then Lᵀ·α = z.
	z := make([]float64, n)
	for i := 0; i < n; i++ {
		s := y[i]
		for c := 0; c < i; c++ {
			s -= k[i*n+c] * z[c]
		}
		z[i] = s / k[i*n+i]
	}
	alpha := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := z[i]
		for c := i + 1; c < n; c++ {
			s -= k[c*n+i] * alpha[c]
		}
		alpha[i] = s / k[i*n+i]
	}

	fit := 0.0
	logdet := 0.0
	for i := 0; i < n; i++ {
		fit += y[i] * alpha[i]
		logdet += math.Log(k[i*n+i])
	}
	return 0.5*fit + logdet + 0.5*float64(n)*math.Log(2*math.Pi)
}
