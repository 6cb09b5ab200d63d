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

// lstmEval is GradBench's evals/lstm as it was until March 2025 (commit
// f8ce3e95^), when it read ADBench's data files rather than generating
// inputs from a text GradBench no longer ships whole: for l in {2, 4} and
// c in {1024, 4096}, in that order, the input read from
// <History>/lstm/data/lstm_l<l>_c<c>.txt (Options.History), described by
// the file's stem, then "objective" and "jacobian" of it.
var lstmEval = Eval{
	Name:       "lstm",
	Runs:       true,
	Primal:     "objective",
	Derivative: "jacobian",
	Requests: func(o Options) iter.Seq2[Request, error] {
		sizes := [][2]int{{2, 1024}, {2, 4096}, {4, 1024}, {4, 4096}}
		if o.Small {
			sizes = sizes[:1]
		}
		return func(yield func(Request, error) bool) {
			for _, sz := range sizes {
				stem := fmt.Sprintf("lstm_l%d_c%d", sz[0], sz[1])
				input, err := readLSTM(filepath.Join(o.History, "lstm", "data", stem+".txt"))
				if err != nil {
					yield(Request{}, err)
					return
				}
				for _, f := range []string{"objective", "jacobian"} {
					if !yield(Request{Function: f, Input: input, Description: stem}, nil) {
						return
					}
				}
			}
		}
	},
}

// readLSTM reads an LSTM data file as GradBench's read_lstm_instance did
// (python/gradbench/gradbench/evals/lstm/io.py, from ADBench): a line "l c
// …", then after an empty line each of 2l rows of main parameters, 3 rows
// of extra parameters, 2l rows of state and c rows of the sequence, blocks
// separated by a line read and ignored.
func readLSTM(path string) (map[string]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("suite: lstm data: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	next := func() []string {
		if !sc.Scan() {
			return nil
		}
		line++
		return strings.Fields(sc.Text())
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("suite: %s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	head := next()
	if len(head) < 2 {
		return nil, bad("want the layer and character counts, got %q", head)
	}
	l, err1 := strconv.Atoi(head[0])
	c, err2 := strconv.Atoi(head[1])
	if err1 != nil || err2 != nil || l < 1 || c < 1 {
		return nil, bad("bad counts %q", head)
	}
	block := func(rows int) ([][]float64, error) {
		next() // the separating line
		out := make([][]float64, rows)
		for i := range out {
			fields := next()
			if fields == nil {
				return nil, bad("file ends inside a block of %d rows", rows)
			}
			out[i] = make([]float64, len(fields))
			for j, s := range fields {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, bad("%v", err)
				}
				out[i][j] = v
			}
		}
		return out, nil
	}
	input := map[string]any{}
	for _, b := range []struct {
		key  string
		rows int
	}{{"main_params", 2 * l}, {"extra_params", 3}, {"state", 2 * l}, {"sequence", c}} {
		rows, err := block(b.rows)
		if err != nil {
			return nil, err
		}
		input[b.key] = rows
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("suite: lstm data: %v", err)
	}
	return input, nil
}
