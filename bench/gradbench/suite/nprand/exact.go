package nprand

import (
	"math"
	"math/big"
)

// numpy's ziggurat tables are literals that agree to the last bit with
// the tables' recursion carried out exactly and rounded once at the end,
// not with the recursion in doubles (whose one-ulp steps add up over 254
// layers). bigExp and bigLog give that recursion 160 bits.

const prec = 160

// exp returns e^x rounded to the nearest double.
func exp(x float64) float64 {
	v, _ := bigExp(new(big.Float).SetPrec(prec).SetFloat64(x)).Float64()
	return v
}

// log returns ln y (y > 0) rounded to the nearest double.
func log(y float64) float64 {
	v, _ := bigLog(new(big.Float).SetPrec(prec).SetFloat64(y)).Float64()
	return v
}

// bigLog returns ln y (y > 0) to 160 bits: Newton's method on e^z = y
// from math.Log's value.
func bigLog(y *big.Float) *big.Float {
	yf, _ := y.Float64()
	z := new(big.Float).SetPrec(prec).SetFloat64(math.Log(yf))
	for range 4 {
		e := bigExp(z)
		// z += (y − e^z) / e^z
		d := new(big.Float).SetPrec(prec).Sub(y, e)
		d.Quo(d, e)
		z.Add(z, d)
	}
	return z
}

// bigExp returns e^x to 160 bits: x = k·ln2 + r with |r| ≤ ln2/2, e^r by
// its Taylor series after halving r eight times and squaring back.
func bigExp(x *big.Float) *big.Float {
	ln2 := bigLn2()
	q := new(big.Float).SetPrec(prec).Quo(x, ln2)
	qf, _ := q.Float64()
	k := math.Round(qf)
	r := new(big.Float).SetPrec(prec).Mul(ln2, new(big.Float).SetPrec(prec).SetFloat64(k))
	r.Sub(x, r)
	r.SetMantExp(r, -8)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 40; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range 8 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// bigLn2 returns ln 2 to 160 bits: 2·atanh(1/3) = 2·Σ 1/((2n+1)·3^(2n+1)).
func bigLn2() *big.Float {
	sum := new(big.Float).SetPrec(prec)
	third := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), big.NewFloat(3).SetPrec(prec))
	pow := new(big.Float).SetPrec(prec).Set(third)
	ninth := new(big.Float).SetPrec(prec).Mul(third, third)
	for n := int64(0); n < 60; n++ {
		t := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(2*n+1))
		sum.Add(sum, t)
		pow.Mul(pow, ninth)
	}
	return sum.Mul(sum, big.NewFloat(2).SetPrec(prec))
}
