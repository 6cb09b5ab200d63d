package ht

import (
	"encoding/json"
	"fmt"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Module is the ht module: "objective" is Objective, "jacobian" is
// Jacobian, on GradBench's HTInput.
var Module = protocol.Module{
	"objective": objective,
	"jacobian":  jacobian,
}

// Input is GradBench's HTInput (ADBench's HandInput as Python's
// dataclasses_json writes it).
type Input struct {
	Theta []float64    `json:"theta"`
	Data  InputData    `json:"data"`
	Us    [][2]float64 `json:"us"`
}

// InputData is GradBench's HTData.
type InputData struct {
	Model           InputModel   `json:"model"`
	Correspondences []int        `json:"correspondences"`
	Points          [][3]float64 `json:"points"`
}

// InputModel is GradBench's HTModel: matrices are lists of rows, vertices
// homogeneous, weights one row per vertex.
type InputModel struct {
	BoneCount            int             `json:"bone_count"`
	BoneNames            []string        `json:"bone_names"`
	Parents              []int           `json:"parents"`
	BaseRelatives        [][4][4]float64 `json:"base_relatives"`
	InverseBaseAbsolutes [][4][4]float64 `json:"inverse_base_absolutes"`
	BasePositions        [][4]float64    `json:"base_positions"`
	Weights              [][]float64     `json:"weights"`
	Triangles            [][3]int        `json:"triangles"`
	IsMirrored           bool            `json:"is_mirrored"`
}

// Problem is a decoded input: θ, the barycentric coordinates us (2 per
// point, none in the simple variant) and the data.
type Problem struct {
	Theta, Us []float64
	Data      Data
}

// Problem checks in and converts it into the objective's arguments.
func (in *Input) Problem() (*Problem, error) {
	m := &in.Data.Model
	nb, nv := len(m.Parents), len(m.BasePositions)
	switch {
	case len(in.Theta) != nTheta:
		return nil, fmt.Errorf("ht: want %d parameters θ, got %d", nTheta, len(in.Theta))
	case nb < minBones || len(m.BaseRelatives) != nb || len(m.InverseBaseAbsolutes) != nb:
		return nil, fmt.Errorf("ht: want at least %d bones with their parents and transforms, got %d, %d, %d", minBones, nb, len(m.BaseRelatives), len(m.InverseBaseAbsolutes))
	case len(m.Weights) != nv:
		return nil, fmt.Errorf("ht: %d vertices but %d rows of weights", nv, len(m.Weights))
	case len(in.Data.Points) != len(in.Data.Correspondences):
		return nil, fmt.Errorf("ht: %d points but %d correspondences", len(in.Data.Points), len(in.Data.Correspondences))
	case len(in.Us) != 0 && len(in.Us) != len(in.Data.Points):
		return nil, fmt.Errorf("ht: %d points but %d pairs us", len(in.Data.Points), len(in.Us))
	}
	for b, p := range m.Parents {
		if p < -1 || p >= b {
			return nil, fmt.Errorf("ht: bone %d has parent %d: want −1 or an earlier bone", b, p)
		}
	}
	for v, w := range m.Weights {
		if len(w) != nb {
			return nil, fmt.Errorf("ht: vertex %d has %d weights for %d bones", v, len(w), nb)
		}
	}
	for t, tri := range m.Triangles {
		for _, v := range tri {
			if v < 0 || v >= nv {
				return nil, fmt.Errorf("ht: triangle %d has vertex %d of %d", t, v, nv)
			}
		}
	}
	n := nv // a simple correspondence is a vertex, a complicated one a triangle
	if len(in.Us) != 0 {
		n = len(m.Triangles)
	}
	for i, c := range in.Data.Correspondences {
		if c < 0 || c >= n {
			return nil, fmt.Errorf("ht: correspondence %d is %d of %d", i, c, n)
		}
	}
	p := &Problem{
		Theta: in.Theta,
		Data: Data{
			Model: Model{
				Parents:              m.Parents,
				BaseRelatives:        make([]mat4, nb),
				InverseBaseAbsolutes: make([]mat4, nb),
				BasePositions:        m.BasePositions,
				Weights:              m.Weights,
				Triangles:            m.Triangles,
				IsMirrored:           m.IsMirrored,
			},
			Correspondences: in.Data.Correspondences,
			Points:          in.Data.Points,
		},
	}
	for b := range nb {
		p.Data.Model.BaseRelatives[b] = m.BaseRelatives[b]
		p.Data.Model.InverseBaseAbsolutes[b] = m.InverseBaseAbsolutes[b]
	}
	for _, u := range in.Us {
		p.Us = append(p.Us, u[0], u[1])
	}
	return p, nil
}

func decode(input json.RawMessage) (*Problem, error) {
	var in Input
	if err := protocol.Decode(input, &in); err != nil {
		return nil, err
	}
	return in.Problem()
}

func objective(input json.RawMessage) (protocol.Prepared, error) {
	p, err := decode(input)
	if err != nil {
		return protocol.Prepared{}, err
	}
	e := make([]float64, 3*len(p.Data.Points))
	return protocol.Prepared{
		Run:    func() { Objective(p.Theta, p.Us, &p.Data, e) },
		Output: func() any { return e },
	}, nil
}

func jacobian(input json.RawMessage) (protocol.Prepared, error) {
	p, err := decode(input)
	if err != nil {
		return protocol.Prepared{}, err
	}
	j := NewJacobian(p)
	return protocol.Prepared{
		Run:    func() { j.Compute() },
		Output: func() any { return j.Rows() },
	}, nil
}
