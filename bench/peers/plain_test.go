package peers

import (
	"math"
	"testing"
)

// loss64 is the reference's loss at params q on p's data.
func loss64(p *Problem, q Grads) float64 {
	pp := *p
	pp.Params = q
	var c Plain[float64]
	if err := c.Setup(&pp); err != nil {
		panic(err)
	}
	return c.Loss()
}

// TestReferenceFiniteDifferences checks the hand-written backpropagation
// of the reference against central differences, every parameter.
func TestReferenceFiniteDifferences(t *testing.T) {
	p := NewProblem(Small, 7)
	loss, g := Reference(p)
	if l := loss64(p, p.Params); l != loss {
		t.Fatalf("Loss %v, Grad's loss %v", l, loss)
	}
	var fd Grads
	const h = 1e-6
	for i := range p.Params {
		fd[i] = make([]float64, len(p.Params[i]))
		for j := range p.Params[i] {
			var q Grads
			for k := range q {
				q[k] = append([]float64(nil), p.Params[k]...)
			}
			q[i][j] += h
			up := loss64(p, q)
			q[i][j] -= 2 * h
			down := loss64(p, q)
			fd[i][j] = (up - down) / (2 * h)
		}
	}
	d := Compare(loss, g, loss, fd)
	t.Logf("reference vs central differences: %.2g (%s)", d.Grad, d.Worst)
	if d.Grad > 1e-7 {
		t.Errorf("gradient differs from central differences by %.3g (%s)", d.Grad, d.Worst)
	}
}

// TestReferenceKnownLoss checks the loss on a problem with zero weights:
// every logit is b3, so the loss is log Σ exp(b3) − mean(b3[label]).
func TestReferenceKnownLoss(t *testing.T) {
	p := NewProblem(Small, 3)
	for i := range 5 {
		clear(p.Params[i])
	}
	b3 := p.Params[5]
	var sum, picked float64
	for _, v := range b3 {
		sum += math.Exp(v)
	}
	for _, l := range p.Labels {
		picked += b3[l]
	}
	want := math.Log(sum) - picked/float64(p.Batch)
	if got, _ := Reference(p); !(math.Abs(got-want) <= 1e-15*math.Abs(want)) {
		t.Errorf("loss %v, want %v", got, want)
	}
}

func TestCompare(t *testing.T) {
	ref := Grads{{1, -2}, {4}, {0.5}, {0}, {1}, {1}}
	g := Grads{{1, -2.002}, {4}, {0.5}, {0}, {1}, {1}}
	d := Compare(2, g, 1, ref)
	if d.Loss != 1 || !(math.Abs(d.Grad-0.001) <= 1e-15) || d.Worst != "W1" {
		t.Errorf("got %+v", d)
	}
	g[3] = []float64{0.01} // against a zero array: the absolute difference
	if d := Compare(1, g, 1, ref); d.Grad != 0.01 || d.Worst != "b2" {
		t.Errorf("zero reference array: got %+v", d)
	}
	g[2] = nil
	if d := Compare(1, g, 1, ref); !math.IsInf(d.Grad, 1) {
		t.Errorf("missing array: got %+v", d)
	}
}

func TestProblemDeterministic(t *testing.T) {
	a, b := NewProblem(Small, 5), NewProblem(Small, 5)
	for i := range a.Params {
		for j := range a.Params[i] {
			if a.Params[i][j] != b.Params[i][j] {
				t.Fatal("same seed, different parameters")
			}
		}
	}
	if c := NewProblem(Small, 6); c.X[0] == a.X[0] {
		t.Error("different seeds, same data")
	}
	for b, l := range a.Labels {
		row := a.OneHot[b*a.Out : (b+1)*a.Out]
		if l < 0 || l >= a.Out || row[l] != 1 {
			t.Errorf("sample %d: label %d, one-hot %v", b, l, row)
		}
	}
}
