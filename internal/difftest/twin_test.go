package difftest

import "testing"

func TestTwin(t *testing.T) {
	src := `package p

import "math"

const k = 1.5

func F(x []float64, a float64, n int) float64 {
	s := 0.0
	for i := range n {
		if x[i] > a {
			s += math.Sin(x[i]) * float64(i)
		} else {
			s = max(s, math.Pow(x[i], 2), 0.5)
		}
	}
	m := Model{W: x, B: k}
	v := Vec2{X: a}
	_ = int(s) + len(x)
	return s * m.B / float64(n) * v.X * math.Pi
}
`
	want := `package p

import (
	"difftest.local/cmath"
	"math"
)

const k = 1.5

func F(x []complex128, a complex128, n int) complex128 {
	s := complex128(0.0)
	for i := range n {
		if cmath.Greater(x[i], a) {
			s += cmath.Seen(cmath.Sin(x[i]) * complex(float64(i), 0))
		} else {
			s = cmath.Max(s, cmath.Pow(x[i], complex128(2)), complex128(0.5))
		}
	}
	m := Model{W: x, B: complex128(k)}
	v := Vec2{X: a}
	_ = int(real(s)) + len(x)
	return cmath.Seen(cmath.Seen(cmath.Seen(cmath.Seen(s*m.B)/complex(float64(n), 0))*v.X) * complex128(math.Pi))
}
`
	p, err := parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.twinFile(p.file, "difftest.local/cmath"); err != nil {
		t.Fatal(err)
	}
	got := string(formatFile(p.fset, p.file))
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
