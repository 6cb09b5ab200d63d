package fit

import (
	"fmt"
	"math"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

// measurements returns noiseless samples of 2·exp(−0.7·t) + 0.5.
func measurements() Data {
	var d Data
	for i := 0; i < 30; i++ {
		ti := 0.2 * float64(i)
		d.T = append(d.T, ti)
		d.Y = append(d.Y, 2*math.Exp(-0.7*ti)+0.5)
	}
	return d
}

func TestLossGrad(t *testing.T) {
	d := measurements()
	gadtest.GonumGrad(t, d.Loss, d.LossGrad, gadtest.Box(3, 0.2, 2))
}

func TestFit(t *testing.T) {
	p, err := measurements().Fit([]float64{1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2, 0.7, 0.5} {
		if !(math.Abs(p[i]-want) <= 1e-6) {
			t.Errorf("p[%d] = %v, want %v", i, p[i], want)
		}
	}
}

func ExampleData_Fit() {
	p, err := measurements().Fit([]float64{1, 1, 0})
	if err != nil {
		panic(err)
	}
	fmt.Printf("a = %.4f, b = %.4f, c = %.4f\n", p[0], p[1], p[2])
	// Output: a = 2.0000, b = 0.7000, c = 0.5000
}
