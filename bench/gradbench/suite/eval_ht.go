package suite

import (
	"bufio"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// htEval is GradBench's evals/ht (run.py) with its default arguments:
// the complicated variant of the big model.
var htEval = *HT("complicated", "big")

// HT returns GradBench's evals/ht run with --variant variant
// ("complicated" or "simple") and --model model ("big" or "small"): for
// i = 1 … 12, the data file evals/ht/data/<variant>_<model>/hand<i>_*.txt
// read with the model beside it as GradBench's io.py reads them, then
// "objective" and "jacobian" of that input, described by the file's name
// without ".txt". Small keeps hand1. A missing data file is an error (for
// GradBench too: run.py fails on it), and the requests go on with the
// next.
func HT(variant, model string) *Eval {
	return &Eval{
		Name: "ht", Runs: true, Primal: "objective", Derivative: "jacobian",
		Requests: func(o Options) iter.Seq2[Request, error] {
			return htRequests(o, variant, model)
		},
	}
}

func htRequests(o Options, variant, model string) iter.Seq2[Request, error] {
	return func(yield func(Request, error) bool) {
		dir := filepath.Join(o.Data, "ht", "data", variant+"_"+model)
		last := 12
		if o.Small {
			last = 1
		}
		for i := 1; i <= last; i++ {
			pattern := fmt.Sprintf("hand%d_*.txt", i)
			files, _ := filepath.Glob(filepath.Join(dir, pattern))
			if len(files) == 0 {
				if !yield(Request{}, fmt.Errorf("ht: no data file %s in %s", pattern, dir)) {
					return
				}
				continue
			}
			input, err := readHandInstance(filepath.Join(dir, "model"), files[0], variant == "complicated")
			if err != nil {
				if !yield(Request{}, err) {
					return
				}
				continue
			}
			desc := strings.TrimSuffix(filepath.Base(files[0]), ".txt")
			for _, fn := range []string{"objective", "jacobian"} {
				if !yield(Request{Function: fn, Input: input, Description: desc}, nil) {
					return
				}
			}
		}
	}
}

// readHandInstance reads a hand model from the directory modelDir and the
// points, correspondences, θ and (when readUs) barycentric coordinates of
// the file path, as GradBench's io.read_hand_instance does, into the
// input's JSON shape (HandInput.to_dict()).
func readHandInstance(modelDir, path string, readUs bool) (map[string]any, error) {
	model, err := loadHandModel(modelDir)
	if err != nil {
		return nil, err
	}
	lines, err := readLines(path)
	if err != nil {
		return nil, err
	}
	next := func() []string {
		if len(lines) == 0 {
			return nil
		}
		l := strings.Fields(lines[0])
		lines = lines[1:]
		return l
	}
	head := next()
	if len(head) < 2 {
		return nil, fmt.Errorf("%s:1: want the number of points and of parameters", path)
	}
	npts, err1 := strconv.Atoi(head[0])
	ntheta, err2 := strconv.Atoi(head[1])
	if err1 != nil || err2 != nil || npts < 0 || ntheta < 0 {
		return nil, fmt.Errorf("%s:1: want the number of points and of parameters, got %q", path, head)
	}
	bad := func(what string) error { return fmt.Errorf("%s: %s", path, what) }
	corr := make([]int, npts)
	points := make([][]float64, npts)
	for i := range npts {
		f := next()
		if len(f) < 1 {
			return nil, bad("too few points")
		}
		if corr[i], err = strconv.Atoi(f[0]); err != nil {
			return nil, bad(err.Error())
		}
		if points[i], err = parseAll(f[1:]); err != nil {
			return nil, bad(err.Error())
		}
	}
	us := [][]float64{}
	if readUs {
		for range npts {
			u, err := parseAll(next())
			if err != nil {
				return nil, bad(err.Error())
			}
			us = append(us, u)
		}
	}
	theta := make([]float64, ntheta)
	for k := range theta {
		f := next()
		if len(f) != 1 {
			return nil, bad("want one parameter a line")
		}
		if theta[k], err = parseFloat(f[0]); err != nil {
			return nil, bad(err.Error())
		}
	}
	return map[string]any{
		"theta": theta,
		"data": map[string]any{
			"model":           model,
			"correspondences": corr,
			"points":          points,
		},
		"us": us,
	}, nil
}

// loadHandModel reads a hand model as io.load_model does: triangles.txt
// (three vertices a line), bones.txt (name, parent, the relative transform
// and the inverse absolute transform, row by row), vertices.txt
// (position, 5 numbers unused, the number of bones, then bone and weight
// pairs), all separated by ':'.
func loadHandModel(dir string) (map[string]any, error) {
	read := func(name string) ([][]string, error) {
		lines, err := readLines(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		var out [][]string
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				out = append(out, strings.Split(strings.TrimRight(l, "\r"), ":"))
			}
		}
		return out, nil
	}
	bad := func(name string, line int, what any) error {
		return fmt.Errorf("%s:%d: %v", filepath.Join(dir, name), line+1, what)
	}
	triLines, err := read("triangles.txt")
	if err != nil {
		return nil, err
	}
	triangles := make([][]int, len(triLines))
	for i, f := range triLines {
		for _, s := range f {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return nil, bad("triangles.txt", i, err)
			}
			triangles[i] = append(triangles[i], v)
		}
	}
	boneLines, err := read("bones.txt")
	if err != nil {
		return nil, err
	}
	nb := len(boneLines)
	names := make([]string, nb)
	parents := make([]int, nb)
	relatives := make([][][]float64, nb)
	inverses := make([][][]float64, nb)
	for b, f := range boneLines {
		if len(f) != 2+16+16 {
			return nil, bad("bones.txt", b, "want a name, a parent and two 4×4 matrices")
		}
		names[b] = f[0]
		if parents[b], err = strconv.Atoi(strings.TrimSpace(f[1])); err != nil {
			return nil, bad("bones.txt", b, err)
		}
		nums, err := parseAll(f[2:])
		if err != nil {
			return nil, bad("bones.txt", b, err)
		}
		relatives[b], inverses[b] = rows4(nums[:16]), rows4(nums[16:])
	}
	vertLines, err := read("vertices.txt")
	if err != nil {
		return nil, err
	}
	positions := make([][]float64, len(vertLines))
	weights := make([][]float64, len(vertLines))
	for v, f := range vertLines {
		if len(f) < 9 {
			return nil, bad("vertices.txt", v, "too few fields")
		}
		pos, err := parseAll(f[:3])
		if err != nil {
			return nil, bad("vertices.txt", v, err)
		}
		positions[v] = append(pos, 1)
		weights[v] = make([]float64, nb)
		n, err := strconv.Atoi(strings.TrimSpace(f[8]))
		if err != nil || len(f) < 9+2*n {
			return nil, bad("vertices.txt", v, "bad bone count")
		}
		for i := range n {
			bone, err := strconv.Atoi(strings.TrimSpace(f[9+2*i]))
			if err != nil || bone < 0 || bone >= nb {
				return nil, bad("vertices.txt", v, "bad bone")
			}
			if weights[v][bone], err = parseFloat(strings.TrimSpace(f[10+2*i])); err != nil {
				return nil, bad("vertices.txt", v, err)
			}
		}
	}
	return map[string]any{
		"bone_count":             nb,
		"bone_names":             names,
		"parents":                parents,
		"base_relatives":         relatives,
		"inverse_base_absolutes": inverses,
		"base_positions":         positions,
		"weights":                weights,
		"triangles":              triangles,
		"is_mirrored":            false,
	}, nil
}

// rows4 returns 16 numbers as a 4×4 matrix, row by row (numpy's reshape).
func rows4(x []float64) [][]float64 {
	return [][]float64{x[0:4], x[4:8], x[8:12], x[12:16]}
}

// parseAll parses each of fields as a number.
func parseAll(fields []string) ([]float64, error) {
	out := make([]float64, len(fields))
	for i, s := range fields {
		v, err := parseFloat(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// readLines returns the lines of the file path.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		lines = append(lines, s.Text())
	}
	return lines, s.Err()
}
