package nprand

import (
	"math"
	"math/bits"
)

// seedSequence returns the n 32-bit words numpy's SeedSequence(entropy)
// generates (generate_state), for one non-negative entropy integer below
// 2³² and numpy's pool of four words.
func seedSequence(entropy uint32, n int) []uint32 {
	const (
		initA, multA = 0x43b0d7e5, 0x931e8875
		initB, multB = 0x8b51f9dd, 0x58f38ded
		mixL, mixR   = 0xca01f9dd, 0x4973f715
		xshift       = 16
	)
	hashConst := uint32(initA)
	hashmix := func(v uint32) uint32 {
		v ^= hashConst
		hashConst *= multA
		v *= hashConst
		return v ^ v>>xshift
	}
	mix := func(x, y uint32) uint32 {
		r := mixL*x - mixR*y
		return r ^ r>>xshift
	}
	var pool [4]uint32
	pool[0] = hashmix(entropy)
	for i := 1; i < 4; i++ {
		pool[i] = hashmix(0)
	}
	for src := range pool {
		for dst := range pool {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}
	out := make([]uint32, n)
	hashConst = initB
	for i := range out {
		v := pool[i%4]
		v ^= hashConst
		hashConst *= multB
		v *= hashConst
		out[i] = v ^ v>>xshift
	}
	return out
}

// PCG64 is the stream of numpy's np.random.default_rng(seed): PCG64
// seeded through SeedSequence.
type PCG64 struct {
	hi, lo       uint64 // state
	incHi, incLo uint64
}

// NewPCG64 returns the stream np.random.default_rng(seed) starts.
func NewPCG64(seed uint32) *PCG64 {
	w := seedSequence(seed, 8)
	u := func(i int) uint64 { return uint64(w[2*i]) | uint64(w[2*i+1])<<32 }
	initHi, initLo, seqHi, seqLo := u(0), u(1), u(2), u(3)
	p := &PCG64{}
	// inc = initseq<<1 | 1
	p.incHi = seqHi<<1 | seqLo>>63
	p.incLo = seqLo<<1 | 1
	p.step()
	var c uint64
	p.lo, c = bits.Add64(p.lo, initLo, 0)
	p.hi, _ = bits.Add64(p.hi, initHi, c)
	p.step()
	return p
}

// step advances the 128-bit LCG: state = state·mult + inc.
func (p *PCG64) step() {
	const multHi, multLo = 0x2360ed051fc65da4, 0x4385df649fccf645
	hi, lo := bits.Mul64(p.lo, multLo)
	hi += p.hi*multLo + p.lo*multHi
	var c uint64
	p.lo, c = bits.Add64(lo, p.incLo, 0)
	p.hi, _ = bits.Add64(hi, p.incHi, c)
}

// Uint64 returns the next 64 random bits (XSL-RR output of the new state).
func (p *PCG64) Uint64() uint64 {
	p.step()
	return bits.RotateLeft64(p.hi^p.lo, -int(p.hi>>58))
}

// Float64 returns a double in [0, 1) from the top 53 bits of one draw.
func (p *PCG64) Float64() float64 {
	return float64(p.Uint64()>>11) * (1.0 / 9007199254740992.0)
}

// Uniform returns n values of Generator.uniform(size=n) (low 0, high 1).
func (p *PCG64) Uniform(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 0 + 1*p.Float64()
	}
	return x
}

// Normal returns n values of Generator.normal(size=n) (loc 0, scale 1).
func (p *PCG64) Normal(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 0 + 1*p.StandardNormal()
	}
	return x
}

// The ziggurat of 256 layers for the standard normal's right half, in
// numpy's order: layer 0 is the base (the rectangle of width v/f(r) that
// stands for the base strip and the tail beyond r), layer i > 0 covers
// [0, x[i]] with x[255] = r, x[i−1] = f⁻¹(v/x[i] + f(x[i])) and an inner
// box [0, x[i−1]] (empty for the top layer), f(x) = exp(−x²/2).
const (
	zigR = 3.6541528853610087963519472518
	zigV = 0.00492867323397465524494
)

var zigK [256]uint64
var zigW, zigF [256]float64

func init() {
	f := func(x float64) float64 { return exp(-0.5 * x * x) }
	var x [256]float64
	x[255] = zigR
	for i := 254; i >= 1; i-- {
		x[i] = math.Sqrt(-2 * log(zigV/x[i+1]+f(x[i+1])))
	}
	const m = 1 << 52
	zigK[0] = uint64(zigR * f(zigR) / zigV * m)
	zigW[0] = zigV / f(zigR) / m
	zigF[0] = 1
	for i := 1; i < 256; i++ {
		if i > 1 {
			zigK[i] = uint64(x[i-1] / x[i] * m)
		}
		zigW[i] = x[i] / m
		zigF[i] = f(x[i])
	}
}

// StandardNormal returns numpy's random_standard_normal.
func (p *PCG64) StandardNormal() float64 {
	for {
		r := p.Uint64()
		idx := r & 0xff
		r >>= 8
		sign := r & 1
		rabs := r >> 1 & 0x000fffffffffffff
		x := float64(rabs) * zigW[idx]
		if sign == 1 {
			x = -x
		}
		if rabs < zigK[idx] {
			return x
		}
		if idx == 0 {
			for {
				xx := -(1 / zigR) * math.Log1p(-p.Float64())
				yy := -math.Log1p(-p.Float64())
				if yy+yy > xx*xx {
					if rabs>>8&1 == 1 {
						return -(zigR + xx)
					}
					return zigR + xx
				}
			}
		}
		if (zigF[idx-1]-zigF[idx])*p.Float64()+zigF[idx] < math.Exp(-0.5*x*x) {
			return x
		}
	}
}
