// Package kmeans is GradBench's kmeans eval: the k-means cost of n points
// and k centroids in d dimensions, and the Newton direction J/H of that
// cost, J its gradient and H its Hessian's diagonal, both with respect to
// the centroids, by gadgen's forward mode over its reverse mode.
package kmeans

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// Cost returns Σᵢ minⱼ |cⱼ − pᵢ|², the points p and the centroids c
// stored row after row, d numbers each.
//
//gad:grad wrt=centroids
func Cost(points, centroids []float64, d int) float64 {
	n, k := len(points)/d, len(centroids)/d
	cost := 0.0
	for i := range n {
		p := points[i*d : (i+1)*d]
		closest := math.Inf(1)
		for j := range k {
			closest = min(closest, dist2(p, centroids[j*d:(j+1)*d]))
		}
		cost += closest
	}
	return cost
}

// dist2 returns |a − b|².
func dist2(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		e := a[i] - b[i]
		s += e * e
	}
	return s
}

// costGrad adds the gradient of Cost with respect to the centroids to
// grad. Its JVP along v, by forward mode over CostGrad, also adds H·v to
// the tangent of grad, H the Hessian of Cost.
//
//gad:jvp wrt=centroids,grad
func costGrad(points, centroids, grad []float64, d int) float64 {
	return CostGrad(points, centroids, grad, d)
}
