package spirals

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestLossGrad checks the generated gradient against central differences
// along a random direction of each of the model's tensors.
func TestLossGrad(t *testing.T) {
	x, labels := Spirals(20, 0.05, 1)
	y := tensorops.OneHot(labels, 2, tensorops.Float64)
	m := NewModel(1)
	g := &Model{}
	if f := LossGrad(m, g, x, y); f != Loss(m, x, y) {
		t.Errorf("LossGrad value %v, want %v", f, Loss(m, x, y))
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for i, p := range m.params() {
		v := tensorops.RandN(rng, tensorops.Float64, p.Shape()...)
		const h = 1e-6
		old := p.Clone()
		tensorops.AddInto(p, tensorops.Scale(v, h))
		up := Loss(m, x, y)
		tensorops.Copy(p, old)
		tensorops.AddInto(p, tensorops.Scale(v, -h))
		down := Loss(m, x, y)
		tensorops.Copy(p, old)
		want := (up - down) / (2 * h)
		if got := tensorops.Dot(g.params()[i], v); !(math.Abs(got-want) <= 1e-7*math.Max(1, math.Abs(want))) {
			t.Errorf("tensor %d: ⟨∇L, v⟩ = %v, central differences %v", i, got, want)
		}
	}
}

// Example trains the classifier and prints the loss falling: the model
// separates the two arms.
func Example() {
	x, labels := Spirals(100, 0.05, 1)
	m := NewModel(1)
	fmt.Printf("accuracy before: %.2f\n", Accuracy(m, x, labels))
	Train(m, x, labels, 1500, 0.1, 0.9, 300, func(step int, loss float64) {
		fmt.Printf("step %4d  loss %.3f\n", step, loss)
	})
	fmt.Printf("accuracy after: %.2f\n", Accuracy(m, x, labels))
	// Output:
	// accuracy before: 0.58
	// step    0  loss 0.690
	// step  300  loss 0.421
	// step  600  loss 0.202
	// step  900  loss 0.103
	// step 1200  loss 0.087
	// accuracy after: 0.96
}
