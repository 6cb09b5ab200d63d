package kmeans

import (
	"encoding/json"
	"fmt"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Input is the kmeans eval's input: n points and k centroids, d numbers
// each.
type Input struct {
	Points    [][]float64 `json:"points"`
	Centroids [][]float64 `json:"centroids"`
}

// Module is the kmeans module: "cost" is Cost; "dir" is the Newton
// direction J/H, element by element, J the gradient of Cost with respect to
// the centroids and H its Hessian's diagonal. H is diagonal (each point's
// term depends on its nearest centroid alone), so H = H·1: both come from
// one call of costGradJVP along the vector of ones.
var Module = protocol.Module{
	"cost": func(raw json.RawMessage) (protocol.Prepared, error) {
		points, centroids, d, err := decode(raw)
		if err != nil {
			return protocol.Prepared{}, err
		}
		var cost float64
		return protocol.Prepared{
			Run:    func() { cost = Cost(points, centroids, d) },
			Output: func() any { return cost },
		}, nil
	},
	"dir": func(raw json.RawMessage) (protocol.Prepared, error) {
		points, centroids, d, err := decode(raw)
		if err != nil {
			return protocol.Prepared{}, err
		}
		ones := make([]float64, len(centroids))
		for i := range ones {
			ones[i] = 1
		}
		grad := make([]float64, len(centroids))
		hess := make([]float64, len(centroids))
		dir := make([]float64, len(centroids))
		return protocol.Prepared{
			Run: func() {
				clear(grad)
				clear(hess)
				costGradJVP(points, centroids, ones, grad, hess, d)
				for i := range dir {
					dir[i] = grad[i] / hess[i]
				}
			},
			Output: func() any { return rows(dir, d) },
		}, nil
	},
}

// decode returns the input's points and centroids flattened, row after
// row, and their dimension.
func decode(raw json.RawMessage) (points, centroids []float64, d int, err error) {
	var in Input
	if err := protocol.Decode(raw, &in); err != nil {
		return nil, nil, 0, err
	}
	if len(in.Points) == 0 || len(in.Centroids) == 0 {
		return nil, nil, 0, fmt.Errorf("kmeans: %d points, %d centroids: want at least one of each", len(in.Points), len(in.Centroids))
	}
	d = len(in.Points[0])
	if points, err = flatten(in.Points, d); err != nil {
		return nil, nil, 0, err
	}
	if centroids, err = flatten(in.Centroids, d); err != nil {
		return nil, nil, 0, err
	}
	return points, centroids, d, nil
}

// flatten returns the rows of x, each of length d, one after the other.
func flatten(x [][]float64, d int) ([]float64, error) {
	out := make([]float64, 0, len(x)*d)
	for i, row := range x {
		if len(row) != d {
			return nil, fmt.Errorf("kmeans: row %d has %d numbers, want %d", i, len(row), d)
		}
		out = append(out, row...)
	}
	return out, nil
}

// rows returns x cut into rows of d numbers.
func rows(x []float64, d int) [][]float64 {
	out := make([][]float64, len(x)/d)
	for i := range out {
		out[i] = x[i*d : (i+1)*d]
	}
	return out
}
