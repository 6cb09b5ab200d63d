package gpu

import (
	"math"
	"math/big"
	"sync"
)

// This file computes references to 256 bits with math/big, for the points
// where devmath.h and Go's math differ by more than the stated ulps: Go's
// Cody–Waite reduction of Sin and Cos below 2^29 loses accuracy near
// multiples of π/2, and its Pow is off by tens of ulps where |y·log x| is
// large. The results are correctly rounded to float64 (but for ties of
// probability 2^-200).

const bigPrec = 256

func bigF(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

// bigPi returns π to 1500 bits (Machin's formula).
var bigPi = sync.OnceValue(func() *big.Float {
	const bits = 1600
	one := new(big.Int).Lsh(big.NewInt(1), bits)
	atanInv := func(n int64) *big.Int {
		s, t := new(big.Int), new(big.Int).Quo(one, big.NewInt(n))
		n2 := big.NewInt(n * n)
		for k, sign := int64(1), 1; t.Sign() != 0; k, sign = k+2, -sign {
			term := new(big.Int).Quo(t, big.NewInt(k))
			if sign > 0 {
				s.Add(s, term)
			} else {
				s.Sub(s, term)
			}
			t.Quo(t, n2)
		}
		return s
	}
	pi := new(big.Int).Sub(new(big.Int).Mul(big.NewInt(16), atanInv(5)), new(big.Int).Mul(big.NewInt(4), atanInv(239)))
	f := new(big.Float).SetPrec(1500).SetInt(pi)
	return f.SetMantExp(f, -bits)
})

// bigSinCos returns sin x and cos x to float64.
func bigSinCos(x float64) (float64, float64) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN(), math.NaN()
	}
	// r = x − k·π/2 with 1500-bit π, then Taylor series.
	pio2 := new(big.Float).SetPrec(1500).Quo(bigPi(), big.NewFloat(2))
	q := new(big.Float).SetPrec(1500).Quo(new(big.Float).SetPrec(1500).SetFloat64(x), pio2)
	kf, _ := q.Float64()
	k := new(big.Float).SetPrec(1500).SetFloat64(math.Round(kf))
	if math.Abs(kf) > 1<<52 { // round the big quotient itself
		ki, _ := q.Int(nil)
		k.SetInt(ki)
	}
	r := new(big.Float).SetPrec(1500).Sub(new(big.Float).SetPrec(1500).SetFloat64(x), new(big.Float).SetPrec(1500).Mul(k, pio2))
	r.SetPrec(bigPrec)
	s, c := new(big.Float).SetPrec(bigPrec), new(big.Float).SetPrec(bigPrec)
	term := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	r2 := new(big.Float).SetPrec(bigPrec).Mul(r, r)
	for n := int64(0); n < 80; n++ { // term = (−1)^n r^(2n)/(2n)!
		c.Add(c, term)
		st := new(big.Float).SetPrec(bigPrec).Mul(term, r)
		st.Quo(st, new(big.Float).SetInt64(2*n+1))
		s.Add(s, st)
		term.Mul(term, r2)
		term.Quo(term, new(big.Float).SetInt64(-(2*n+1)*(2*n+2)))
	}
	sf, _ := s.Float64()
	cf, _ := c.Float64()
	ki := new(big.Int)
	k.Int(ki)
	switch new(big.Int).And(ki, big.NewInt(3)).Int64() {
	case 1:
		sf, cf = cf, -sf
	case 2:
		sf, cf = -sf, -cf
	case 3:
		sf, cf = -cf, sf
	}
	return sf, cf
}

func bigSin(x float64) float64 { s, _ := bigSinCos(x); return s }
func bigCos(x float64) float64 { _, c := bigSinCos(x); return c }

// bigExp returns e^v: Taylor series of v/2^20, squared 20 times.
func bigExp(v *big.Float) *big.Float {
	const sq = 20
	w := new(big.Float).SetPrec(bigPrec).SetMantExp(v, -sq)
	s := new(big.Float).SetPrec(bigPrec)
	term := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for n := int64(1); n < 30; n++ {
		s.Add(s, term)
		term.Mul(term, w)
		term.Quo(term, new(big.Float).SetInt64(n))
	}
	for range sq {
		s.Mul(s, s)
	}
	return s
}

// bigLog returns log x for x > 0 (Newton's iteration on e^y = x).
func bigLog(x float64) *big.Float {
	y := bigF(math.Log2(x) * math.Ln2) // math.Log is wrong for subnormals on amd64
	bx := bigF(x)
	for range 4 {
		e := bigExp(y)
		num := new(big.Float).SetPrec(bigPrec).Sub(bx, e)
		den := new(big.Float).SetPrec(bigPrec).Add(bx, e)
		num.Quo(num, den)
		y.Add(y, num.Mul(num, big.NewFloat(2)))
	}
	return y
}

// bigPow returns x^y for finite x ≠ 0 and y (the sign as for an integer y).
func bigPow(x, y float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) || x < 0 && y != math.Trunc(y) {
		return math.Pow(x, y)
	}
	v := new(big.Float).SetPrec(bigPrec).Mul(bigLog(math.Abs(x)), bigF(y))
	f, _ := bigExp(v).Float64()
	if x < 0 && math.Mod(y, 2) != 0 {
		f = -f
	}
	return f
}
