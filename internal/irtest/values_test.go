package irtest_test

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir/interp"
)

// TestFloatsWithFloats checks the helpers of the execution tests.
func TestFloatsWithFloats(t *testing.T) {
	v := interp.FromGo(struct {
		A []float64
		P *[2]float64
		N int
	}{[]float64{1, 2}, &[2]float64{3, 4}, 5})
	got := irtest.Floats(nil, v)
	if want := []float64{1, 2, 3, 4}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Floats: got %v, want %v", got, want)
	}
	w, rest := irtest.WithFloats(v, []float64{5, 6, 7, 8, 9})
	if got := irtest.Floats(nil, w); fmt.Sprint(got) != fmt.Sprint([]float64{5, 6, 7, 8}) || len(rest) != 1 {
		t.Errorf("WithFloats: got %v, rest %v, want [5 6 7 8], rest [9]", got, rest)
	}
	if got := irtest.Floats(nil, v); fmt.Sprint(got) != fmt.Sprint([]float64{1, 2, 3, 4}) {
		t.Errorf("WithFloats changed its input: got %v, want [1 2 3 4]", got)
	}
}
