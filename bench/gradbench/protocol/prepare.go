package protocol

import "encoding/json"

// Decoding returns the Function that decodes its input into a T (not
// timed) and evaluates what prepare returns for it.
func Decoding[T any](prepare func(in *T) Prepared) Function {
	return func(input json.RawMessage) (Prepared, error) {
		in := new(T)
		if err := Decode(input, in); err != nil {
			return Prepared{}, err
		}
		return prepare(in), nil
	}
}

// Value returns the evaluation that runs f and outputs its result.
func Value[R any](f func() R) Prepared {
	var y R
	return Prepared{
		Run:    func() { y = f() },
		Output: func() any { return y },
	}
}

// Gradient returns the evaluation that zeroes a slice of n floats, runs
// grad on it (a gradient accumulated into its shadow, gadgen's reverse-mode
// convention) and outputs it.
func Gradient(n int, grad func(xBar []float64)) Prepared {
	g := make([]float64, n)
	return Prepared{
		Run: func() {
			clear(g)
			grad(g)
		},
		Output: func() any { return g },
	}
}

// Flat returns the rows of a matrix, as JSON inputs give them, one after
// the other in one slice (never nil).
func Flat(rows [][]float64) []float64 {
	out := []float64{}
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}
