package ht

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/bench/gradbench/suite"
	"github.com/gadgen/gadgen/gadtest"
)

// variants are GradBench's two variants of the eval.
var variants = []string{"complicated", "simple"}

// dataTree returns a directory laid out as GradBench's evals directory
// with the small model and hand1 of each variant (testdata holds them
// once, with ADBench's license).
func dataTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, v := range variants {
		dir := filepath.Join(root, "ht", "data", v+"_small")
		copyFile(t, filepath.Join("testdata", v+"_small", "hand1_t26_c100.txt"), filepath.Join(dir, "hand1_t26_c100.txt"))
		for _, name := range []string{"bones.txt", "triangles.txt", "vertices.txt"} {
			copyFile(t, filepath.Join("testdata", "model", name), filepath.Join(dir, "model", name))
		}
	}
	return root
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestModule runs hand1 of the small model, both variants, through the
// module, as the protocol does, and compares the outputs with the manual
// tool's by GradBench's rule (references gzipped).
func TestModule(t *testing.T) {
	data := dataTree(t)
	for _, v := range variants {
		t.Run(v, func(t *testing.T) {
			c := evaltest.Case{Eval: suite.HT(v, "small"), Options: suite.Options{Data: data}, Module: Module,
				Dir: filepath.Join("testdata", v+"_small"), Gzip: true}
			if n := c.Run(t); n != 2 {
				t.Errorf("got %d requests, want objective and jacobian of hand1", n)
			}
		})
	}
}

// problem returns hand1 of the small model in the variant v.
func problem(t *testing.T, data, v string) *Problem {
	t.Helper()
	for r, err := range suite.HT(v, "small").Requests(suite.Options{Data: data, Small: true}) {
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(r.Input)
		if err != nil {
			t.Fatal(err)
		}
		p, err := decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Fatal("no request")
	return nil
}

// TestJacobianFD checks every column of the Jacobian of hand1, both
// variants, against central differences of Objective along the column's
// direction: a unit vector of θ, or for the first two columns of the
// complicated variant, (1, 0, 1, 0, …) and (0, 1, 0, 1, …) of us.
func TestJacobianFD(t *testing.T) {
	data := dataTree(t)
	for _, v := range variants {
		t.Run(v, func(t *testing.T) {
			p := problem(t, data, v)
			j := NewJacobian(p)
			j.Compute()
			nu := len(p.Us)
			x := append(append([]float64(nil), p.Theta...), p.Us...)
			f := func(x []float64) []float64 {
				res := make([]float64, j.nrows)
				Objective(x[:nTheta], x[nTheta:], &p.Data, res)
				return res
			}
			jvp := func(x, dir []float64) ([]float64, []float64) {
				// the column whose direction dir is (the check's only direction)
				c := column(dir, nu)
				return f(x), j.J[c*j.nrows : (c+1)*j.nrows]
			}
			for c := range j.cols {
				dir := make([]float64, nTheta+nu)
				switch {
				case nu == 0:
					dir[c] = 1
				case c >= 2:
					dir[c-2] = 1
				default:
					for i := nTheta + c; i < len(dir); i += 2 {
						dir[i] = 1
					}
				}
				if err := gadtest.CheckJVP(f, jvp, x, dir, nil); err != nil {
					t.Errorf("column %d: %v", c, err)
				}
			}
		})
	}
}

// column returns the Jacobian column along direction dir (see
// TestJacobianFD), nu the number of us.
func column(dir []float64, nu int) int {
	for i, d := range dir[:nTheta] {
		if d != 0 {
			if nu == 0 {
				return i
			}
			return i + 2
		}
	}
	if dir[nTheta] != 0 {
		return 0
	}
	return 1
}
