package gp

import (
	"math"
	"math/rand/v2"
)

// HandGrad returns NLL(theta, x, y) and adds its gradient with respect to
// theta to dtheta (reverse-mode convention: the adjoints accumulate).
//
// It is the textbook gradient (Rasmussen and Williams, Gaussian Processes
// for Machine Learning, eq. 5.9, negated):
//
//	∂NLL/∂θₚ = ½·tr((K⁻¹ − ααᵀ)·∂K/∂θₚ)
//
// with ∂K/∂log ℓ = Kf⊙R/ℓ² (Kf the kernel without noise, R the squared
// distances), ∂K/∂log σf² = Kf and ∂K/∂log σn² = σn²·I. K⁻¹ comes from the
// Cholesky factor: L⁻¹ by forward substitution, then K⁻¹ = L⁻ᵀ·L⁻¹. Kf is
// recomputed in the last sweep rather than stored, so that HandGrad holds
// two n×n matrices (L, then K⁻¹ in its place; L⁻¹), as NLL holds one.
// HandGrad panics if len(x) is not a multiple of len(y) or len(dtheta) < 3.
func HandGrad(theta, dtheta, x, y []float64) float64 {
	n := len(y)
	if n == 0 || len(x)%n != 0 || len(dtheta) < 3 {
		panic("gp: bad dimensions")
	}
	d := len(x) / n
	ell := math.Exp(theta[0])
	sf2 := math.Exp(theta[1])
	sn2 := math.Exp(theta[2])

	// dist2 is the squared distance between points i and j.
	dist2 := func(i, j int) float64 {
		xi, xj := x[i*d:(i+1)*d], x[j*d:(j+1)*d]
		r2 := 0.0
		for c, v := range xi {
			t := v - xj[c]
			r2 += t * t
		}
		return r2
	}
	inv2ell2 := 0.5 / (ell * ell)

	// L, as NLL computes it (lower triangle, row-major).
	l := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			l[i*n+j] = sf2 * math.Exp(-dist2(i, j)*inv2ell2)
		}
		l[i*n+i] = sf2 + sn2
	}
	for j := 0; j < n; j++ {
		lj := l[j*n : j*n+j]
		s := l[j*n+j]
		for _, v := range lj {
			s -= v * v
		}
		ljj := math.Sqrt(s)
		l[j*n+j] = ljj
		for i := j + 1; i < n; i++ {
			li := l[i*n : i*n+j]
			s := l[i*n+j]
			for c, v := range li {
				s -= v * lj[c]
			}
			l[i*n+j] = s / ljj
		}
	}

	// α = L⁻ᵀ·L⁻¹·y.
	alpha := make([]float64, n)
	for i := 0; i < n; i++ {
		s := y[i]
		for c, v := range l[i*n : i*n+i] {
			s -= v * alpha[c]
		}
		alpha[i] = s / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := alpha[i]
		for c := i + 1; c < n; c++ {
			s -= l[c*n+i] * alpha[c]
		}
		alpha[i] = s / l[i*n+i]
	}
	fit, logdet := 0.0, 0.0
	for i, yi := range y {
		fit += yi * alpha[i]
		logdet += math.Log(l[i*n+i])
	}

	// L⁻¹, row by row: row i is (eᵢ − Σ_{c<i} L_ic·(row c of L⁻¹))/L_ii.
	linv := make([]float64, n*n)
	for i := 0; i < n; i++ {
		row := linv[i*n : i*n+i+1]
		row[i] = 1
		for c := 0; c < i; c++ {
			lic := l[i*n+c]
			for j, v := range linv[c*n : c*n+c+1] {
				row[j] -= lic * v
			}
		}
		lii := l[i*n+i]
		for j := range row {
			row[j] /= lii
		}
	}

	// K⁻¹ = Σ_r (row r of L⁻¹)ᵀ·(row r of L⁻¹), lower triangle, into l.
	kinv := l
	clear(kinv)
	for r := 0; r < n; r++ {
		lr := linv[r*n : r*n+r+1]
		for i, v := range lr {
			ki := kinv[i*n : i*n+i+1]
			for j, u := range lr[:i+1] {
				ki[j] += v * u
			}
		}
	}

	// ½·tr(W·∂K/∂θ) with W = K⁻¹ − ααᵀ, over the lower triangle (the
	// off-diagonal terms count twice).
	var gEll, gSf, gSn float64
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			r2 := dist2(i, j)
			kf := sf2 * math.Exp(-r2*inv2ell2)
			w := kinv[i*n+j] - alpha[i]*alpha[j]
			gSf += 2 * w * kf
			gEll += 2 * w * kf * r2 / (ell * ell)
		}
		w := kinv[i*n+i] - alpha[i]*alpha[i]
		gSf += w * sf2
		gSn += w * sn2
	}
	dtheta[0] += 0.5 * gEll
	dtheta[1] += 0.5 * gSf
	dtheta[2] += 0.5 * gSn
	return 0.5*fit + logdet + 0.5*float64(n)*math.Log(2*math.Pi)
}

// Data returns a reproducible problem: n points uniform in the unit
// square or cube of dimension d, targets y = sin(3x₀) + cos(2x₁) (the
// first two coordinates; one when d = 1) plus noise of standard deviation
// 0.3, and hyperparameters near ℓ = 0.3, σf² = 1.3, σn² = 0.1 (each log
// moved by 0.1·N(0, 1)).
func Data(n, d int, seed uint64) (theta, x, y []float64) {
	rnd := rand.New(rand.NewPCG(seed, 10))
	theta = []float64{math.Log(0.3), math.Log(1.3), math.Log(0.1)}
	for i := range theta {
		theta[i] += 0.1 * rnd.NormFloat64()
	}
	x = make([]float64, n*d)
	for i := range x {
		x[i] = rnd.Float64()
	}
	y = make([]float64, n)
	for i := range y {
		y[i] = math.Sin(3*x[i*d]) + 0.3*rnd.NormFloat64()
		if d > 1 {
			y[i] += math.Cos(2 * x[i*d+1])
		}
	}
	return theta, x, y
}
