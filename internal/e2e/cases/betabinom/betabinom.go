// Package betabinom is an end-to-end case of primitives from outside
// package math: a beta-binomial model, whose likelihood calls gonum's
// mathext.Lbeta and mathext.Beta in loops and whose expected log-odds
// call mathext.Digamma. Every mode differentiates the calls by the rules
// of package templates, and the generated code calls mathext as the
// source does.
package betabinom

//go:generate gadgen

import "gonum.org/v1/gonum/mathext"

// LogLik returns the log-likelihood, up to the binomial coefficients, of
// k[i] successes in n[i] trials under a beta-binomial model with shapes
// θ = (α, β) > 0:
//
//	Σᵢ ln B(kᵢ + α, nᵢ − kᵢ + β) − ln B(α, β).
//
//gad:grad
//gad:jvp
//gad:taylor order=3
//gad:hvp
func LogLik(theta []float64, k, n []int) float64 {
	a, b := theta[0], theta[1]
	lb := mathext.Lbeta(a, b)
	s := 0.0
	for i := range k {
		s += mathext.Lbeta(float64(k[i])+a, float64(n[i]-k[i])+b) - lb
	}
	return s
}

// Lik returns the likelihood of the same model, Πᵢ B(kᵢ + α, nᵢ − kᵢ + β)
// / B(α, β), for few trials (LogLik otherwise: the product underflows).
//
//gad:grad
//gad:jvp
//gad:taylor order=3
func Lik(theta []float64, k, n []int) float64 {
	a, b := theta[0], theta[1]
	p := 1.0
	for i := range k {
		p *= mathext.Beta(float64(k[i])+a, float64(n[i]-k[i])+b) / mathext.Beta(a, b)
	}
	return p
}

// MeanLogOdds returns E[ln(p/(1−p))] for p ~ Beta(α, β), ψ(α) − ψ(β).
//
//gad:grad
//gad:taylor order=3
func MeanLogOdds(alpha, beta float64) float64 {
	return mathext.Digamma(alpha) - mathext.Digamma(beta)
}
