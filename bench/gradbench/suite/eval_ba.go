package suite

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// baEval is GradBench's evals/ba (run.py): for i = 1 … 14 (its --min and
// --max), the data file evals/ba/data/ba<i>_*.txt read into one camera,
// point, weight and feature with the counts n, m and p, then "objective"
// and "jacobian" of that input, described by the file's name without
// ".txt". Small keeps ba1.
var baEval = Eval{
	Name: "ba", Runs: true, Primal: "objective", Derivative: "jacobian",
	Requests: func(o Options) iter.Seq2[Request, error] {
		return func(yield func(Request, error) bool) {
			last := 14
			if o.Small {
				last = 1
			}
			for i := 1; i <= last; i++ {
				files, err := filepath.Glob(filepath.Join(o.Data, "ba", "data", fmt.Sprintf("ba%d_*.txt", i)))
				if err != nil || len(files) == 0 {
					continue // run.py skips a missing file
				}
				input, err := readBA(files[0])
				if err != nil {
					yield(Request{}, err)
					return
				}
				desc := strings.TrimSuffix(filepath.Base(files[0]), ".txt")
				for _, fn := range []string{"objective", "jacobian"} {
					if !yield(Request{Function: fn, Input: input, Description: desc}, nil) {
						return
					}
				}
			}
		}
	},
}

// readBA reads a ba data file as run.py's parse does: a line "n m p",
// then the camera's parameters, the point, the weight and the feature,
// one line each.
func readBA(path string) (map[string]any, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(text), "\n")
	if len(lines) < 5 {
		return nil, fmt.Errorf("%s: want 5 lines, got %d", path, len(lines))
	}
	counts, err := parseFields(lines[0], strconv.Atoi)
	if err != nil || len(counts) != 3 {
		return nil, fmt.Errorf("%s:1: want n m p: %q", path, lines[0])
	}
	var vecs [4][]float64
	for k := range vecs {
		if vecs[k], err = parseFields(lines[1+k], parseFloat); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, 2+k, err)
		}
	}
	if len(vecs[2]) != 1 {
		return nil, fmt.Errorf("%s:4: want one weight, got %q", path, lines[3])
	}
	return map[string]any{
		"n": counts[0], "m": counts[1], "p": counts[2],
		"cam": vecs[0], "x": vecs[1], "w": vecs[2][0], "feat": vecs[3],
	}, nil
}

// parseFields parses the whitespace-separated fields of line with parse.
func parseFields[T any](line string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Fields(line) {
		v, err := parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// parseFloat parses a number as Python's float does (for data files).
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
