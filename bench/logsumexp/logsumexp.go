// Package logsumexp is suite S1b of gadgen's benchmarks: the numerically
// stable log-sum-exp, its generated forward-mode derivative
// (logsumexp_grad.go) and a hand-written gradient to compare it with.
package logsumexp

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// LogSumExp returns log Σ exp(x[i]), computed as
//
//	log Σ exp(x[i] − m) + m,   m = max x
//
// so that large entries do not overflow. It returns −Inf for an empty x.
//
//gad:jvp
//gad:grad
func LogSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	sum := 0.0
	for _, v := range x {
		sum += math.Exp(v - m)
	}
	return math.Log(sum) + m
}
