package transformer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// perturbed returns a copy of m whose field i is moved by h·v.
func perturbed(m *Block, i int, v *T, h float64) *Block {
	c := *m
	f := c.Fields()[i]
	*f = tensorops.Add(*f, tensorops.Scale(v, h))
	return &c
}

// TestGradient checks LossGrad against central differences along a
// random direction of each tensor of the block, and LossJVP against
// LossGrad along a direction with some fields nil (zero).
func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := New(rng, tensorops.Float64)
	teacher := New(rng, tensorops.Float64)
	x := tensorops.RandN(rng, tensorops.Float64, 5, Width)
	y := Forward(teacher, x)
	var g Block
	f := LossGrad(m, &g, x, y)
	if want := Loss(m, x, y); f != want {
		t.Errorf("LossGrad's value %v, want %v", f, want)
	}
	var dm Block
	jvpWant := 0.0
	const h = 1e-6
	for i, p := range m.Fields() {
		v := tensorops.RandN(rng, tensorops.Float64, (*p).Shape()...)
		fd := (Loss(perturbed(m, i, v, h), x, y) - Loss(perturbed(m, i, v, -h), x, y)) / (2 * h)
		got := tensorops.Dot(*g.Fields()[i], v)
		if !(math.Abs(got-fd) <= 1e-7*math.Max(1, math.Abs(fd))) {
			t.Errorf("field %d: ⟨gradient, v⟩ = %v, want %v (central differences)", i, got, fd)
		}
		if i%3 != 0 { // every third field's direction stays nil: zero
			*dm.Fields()[i] = v
			jvpWant += got
		}
	}
	fj, d := LossJVP(m, &dm, x, y)
	if fj != f || !(math.Abs(d-jvpWant) <= 1e-12*math.Max(1, math.Abs(jvpWant))) {
		t.Errorf("LossJVP = %v, %v, want %v, %v", fj, d, f, jvpWant)
	}
}

// TestFloat32 runs the gradient on a float32 copy of the block and
// compares it with float64's.
func TestFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := New(rng, tensorops.Float32)
	m64 := &Block{}
	for i, p := range m.Fields() {
		*m64.Fields()[i] = tensorops.AsType(*p, tensorops.Float64)
	}
	x := tensorops.RandN(rng, tensorops.Float32, 4, Width)
	y := tensorops.RandN(rng, tensorops.Float32, 4, Width)
	x64, y64 := tensorops.AsType(x, tensorops.Float64), tensorops.AsType(y, tensorops.Float64)
	var g32, g64 Block
	LossGrad(m, &g32, x, y)
	LossGrad(m64, &g64, x64, y64)
	for i, p := range g32.Fields() {
		if (*p).DType() != tensorops.Float32 {
			t.Fatalf("field %d of the float32 gradient has dtype %v", i, (*p).DType())
		}
		want := *g64.Fields()[i]
		scale := math.Max(1e-3, tensorops.MaxAll(tensorops.Abs(want)))
		if d := tensorops.MaxAbsDiff(tensorops.AsType(*p, tensorops.Float64), want); !(d <= 1e-4*scale) {
			t.Errorf("field %d: float32 gradient differs from float64's by %v (scale %v)", i, d, scale)
		}
	}
}

// TestTrain checks that the generated gradient trains the block: Adam
// brings the loss on a fixed batch down by half.
func TestTrain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	student, teacher := New(rng, tensorops.Float64), New(rng, tensorops.Float64)
	before, after := Train(rng, student, teacher, 6, 200, 0.01)
	t.Logf("loss %.4f → %.4f", before, after)
	if !(after < before/2) {
		t.Errorf("loss %v → %v after training, want it halved", before, after)
	}
}
