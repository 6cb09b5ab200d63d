package ba

import (
	"encoding/json"
	"fmt"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Module is the ba module: "objective" is Objective, "jacobian" is
// Jacobian, on the input GradBench sends (one camera, point, weight and
// feature, replicated; see Input).
var Module = protocol.Module{
	"objective": objective,
	"jacobian":  jacobian,
}

// Input is GradBench's BAInput: n cameras, m points and p observations,
// all cameras equal to cam, all points to x, all weights to w and all
// features to feat; observation i sees point i mod m from camera i mod n.
type Input struct {
	N    int       `json:"n"`
	M    int       `json:"m"`
	P    int       `json:"p"`
	Cam  []float64 `json:"cam"`
	X    []float64 `json:"x"`
	W    float64   `json:"w"`
	Feat []float64 `json:"feat"`
}

// Problem is a bundle adjustment problem with its data replicated, as the
// objective and the Jacobian read it.
type Problem struct {
	N, M, P int
	// Cams holds 11 parameters per camera, X 3 coordinates per point, W
	// one weight per observation, Obs a camera and a point index per
	// observation, Feats 2 coordinates per observation.
	Cams, X, W []float64
	Obs        []int
	Feats      []float64
}

// Expand replicates in's data into a Problem, as GradBench's reference
// does.
func (in Input) Expand() (*Problem, error) {
	if in.N < 1 || in.M < 1 || in.P < 1 {
		return nil, fmt.Errorf("ba: n, m and p must be positive, got %d, %d, %d", in.N, in.M, in.P)
	}
	if len(in.Cam) != nCamParams || len(in.X) != 3 || len(in.Feat) != 2 {
		return nil, fmt.Errorf("ba: want 11 camera parameters, 3 coordinates and 2 feature coordinates, got %d, %d, %d", len(in.Cam), len(in.X), len(in.Feat))
	}
	p := &Problem{
		N: in.N, M: in.M, P: in.P,
		Cams:  make([]float64, nCamParams*in.N),
		X:     make([]float64, 3*in.M),
		W:     make([]float64, in.P),
		Obs:   make([]int, 2*in.P),
		Feats: make([]float64, 2*in.P),
	}
	for i := range in.N {
		copy(p.Cams[nCamParams*i:], in.Cam)
	}
	for i := range in.M {
		copy(p.X[3*i:], in.X)
	}
	for i := range in.P {
		p.W[i] = in.W
		p.Obs[2*i], p.Obs[2*i+1] = i%in.N, i%in.M
		copy(p.Feats[2*i:], in.Feat)
	}
	return p, nil
}

func decode(input json.RawMessage) (*Problem, error) {
	var in Input
	if err := protocol.Decode(input, &in); err != nil {
		return nil, err
	}
	return in.Expand()
}

func objective(input json.RawMessage) (protocol.Prepared, error) {
	p, err := decode(input)
	if err != nil {
		return protocol.Prepared{}, err
	}
	reproj, werr := make([]float64, 2*p.P), make([]float64, p.P)
	return protocol.Prepared{
		Run: func() { p.Objective(reproj, werr) },
		Output: func() any {
			// The reference reports the first observation's errors and
			// how often they repeat.
			return objectiveOutput{
				ReprojError: repeated2{Elements: reproj[:2], Repeated: len(reproj) / 2},
				WErr:        repeated1{Element: werr[0], Repeated: len(werr)},
			}
		},
	}, nil
}

type objectiveOutput struct {
	ReprojError repeated2 `json:"reproj_error"`
	WErr        repeated1 `json:"w_err"`
}

type repeated2 struct {
	Elements []float64 `json:"elements"`
	Repeated int       `json:"repeated"`
}

type repeated1 struct {
	Element  float64 `json:"element"`
	Repeated int     `json:"repeated"`
}

func jacobian(input json.RawMessage) (protocol.Prepared, error) {
	p, err := decode(input)
	if err != nil {
		return protocol.Prepared{}, err
	}
	var j SparseMat
	return protocol.Prepared{
		Run:    func() { p.Jacobian(&j) },
		Output: func() any { return j.summary() },
	}, nil
}

// jacobianOutput is what GradBench transmits of the Jacobian: the first
// 30 entries of each of its three lists (the first observation's block)
// and the last one.
type jacobianOutput struct {
	Rows []int     `json:"rows"`
	Cols []int     `json:"cols"`
	Vals []float64 `json:"vals"`
}

func (j *SparseMat) summary() jacobianOutput {
	const k = 2 * blockCols
	return jacobianOutput{
		Rows: firstAndLast(j.Rows, k),
		Cols: firstAndLast(j.Cols, k),
		Vals: firstAndLast(j.Vals, k),
	}
}

// firstAndLast returns s's first k elements followed by its last.
func firstAndLast[T any](s []T, k int) []T {
	out := append([]T(nil), s[:min(k, len(s))]...)
	return append(out, s[len(s)-1])
}
