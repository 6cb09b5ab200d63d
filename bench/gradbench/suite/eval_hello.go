package suite

import (
	"fmt"
	"iter"
	"math"
)

// helloEval is GradBench's evals/hello: four rounds of square, then double
// of the square's result, from x = 1, each checked as numpy's isclose does
// (|a−b| ≤ 1e-8 + 1e-5·|b|).
var helloEval = Eval{
	Name: "hello",
	Requests: func(Options) iter.Seq2[Request, error] {
		// The eval feeds each output into the next input; the session
		// answers with the tool's outputs, which the checks have
		// validated, so the inputs are those the values predict.
		return func(yield func(Request, error) bool) {
			x := 1.0
			for range 4 {
				if !yield(Request{Function: "square", Input: x}, nil) {
					return
				}
				y := x * x
				if !yield(Request{Function: "double", Input: y}, nil) {
					return
				}
				x = 2 * y
			}
		}
	},
	Check: func(r Request, out any) error {
		x := r.Input.(float64)
		want := x * x
		if r.Function == "double" {
			want = 2 * x
		}
		got, ok := out.(float64)
		if !ok || math.Abs(got-want) > 1e-8+1e-5*math.Abs(want) {
			return fmt.Errorf("%s(%v) = %v, want %v", r.Function, x, out, want)
		}
		return nil
	},
}
