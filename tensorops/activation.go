package tensorops

// This file defines the smooth activations GELU, SiLU and Softplus, the
// error function, and the fused first-order derivatives of GELU and
// SiLU. Their element formulas (gelu, silu, softplus, geluGrad, siluGrad)
// are those of the kernels in kernels.go; a device backend computes the
// same formulas (package gpu: unary_math.h, binary.h).

import "math"

const (
	sqrt1_2    = 0.7071067811865476 // 1/√2, rounded
	invSqrt2Pi = 0.3989422804014327 // 1/√(2π), rounded
)

// gelu is x·Φ(x), Φ the standard normal CDF, written as
// x/2·erfc(−x/√2): the exact GELU (PyTorch's default, approximate="none"),
// with erfc rather than 1 + erf so that it keeps its relative accuracy
// for negative x.
func gelu(x float64) float64 { return 0.5 * x * math.Erfc(-x*sqrt1_2) }

// geluGrad is the derivative of gelu: Φ(x) + x·φ(x), φ the standard
// normal density.
func geluGrad(x float64) float64 {
	return 0.5*math.Erfc(-x*sqrt1_2) + x*math.Exp(-0.5*x*x)*invSqrt2Pi
}

// silu is x·σ(x).
func silu(x float64) float64 { return x * sigmoid(x) }

// siluGrad is the derivative of silu: σ(x)·(1 + x·(1 − σ(x))).
func siluGrad(x float64) float64 {
	s := sigmoid(x)
	return s * (1 + x*(1-s))
}

// softplus is log(1 + eˣ), computed as max(x, 0) + log1p(e^−|x|): no
// overflow for large x, no loss of accuracy for very negative x.
func softplus(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }

// GELU returns the Gaussian error linear unit a·Φ(a) elementwise, Φ the
// standard normal CDF: the exact form with the error function,
// a/2·(1 + erf(a/√2)), as PyTorch's default (approximate="none"), not the
// tanh approximation. It is computed as a/2·erfc(−a/√2), which keeps its
// relative accuracy for negative a. Its derivative is Φ(a) + a·φ(a)
// (GELUJVP).
// It panics if a is nil.
func GELU(a *Tensor) *Tensor { return unary("GELU", uGELU, nil, a, 0, 0) }

// GELUTo sets dst = GELU(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func GELUTo(dst, a *Tensor) *Tensor { return unary("GELUTo", uGELU, dst, a, 0, 0) }

// SiLU returns the sigmoid linear unit (swish) a·σ(a) elementwise, σ the
// logistic sigmoid. Its derivative is σ(a)·(1 + a·(1 − σ(a))) (SiLUJVP).
// It panics if a is nil.
func SiLU(a *Tensor) *Tensor { return unary("SiLU", uSiLU, nil, a, 0, 0) }

// SiLUTo sets dst = SiLU(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SiLUTo(dst, a *Tensor) *Tensor { return unary("SiLUTo", uSiLU, dst, a, 0, 0) }

// Softplus returns log(1 + eᵃ) elementwise, computed stably as
// max(a, 0) + log1p(e^−|a|) (no overflow for large a, and no threshold
// above which a itself is returned, unlike PyTorch's default). Its
// derivative is Sigmoid(a).
// It panics if a is nil.
func Softplus(a *Tensor) *Tensor { return unary("Softplus", uSoftplus, nil, a, 0, 0) }

// SoftplusTo sets dst = Softplus(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SoftplusTo(dst, a *Tensor) *Tensor { return unary("SoftplusTo", uSoftplus, dst, a, 0, 0) }

// Erf returns the error function erf(a) = 2/√π ∫₀ᵃ e^(−t²) dt elementwise
// (math.Erf). Its derivative is 2/√π·e^(−a²).
// It panics if a is nil.
func Erf(a *Tensor) *Tensor { return unary("Erf", uErf, nil, a, 0, 0) }

// ErfTo sets dst = Erf(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func ErfTo(dst, a *Tensor) *Tensor { return unary("ErfTo", uErf, dst, a, 0, 0) }

// GELUJVP returns dx⊙(Φ(x) + x⊙φ(x)), the tangent (and the adjoint) of
// GELU(x) for dx, in one pass; nil for a nil dx.
// It panics if x is nil or the shapes or dtypes differ.
func GELUJVP(x, dx *Tensor) *Tensor { return activationGrad("GELUJVP", bGELUGrad, x, dx) }

// SiLUJVP returns dx⊙σ(x)⊙(1 + x⊙(1 − σ(x))), the tangent (and the
// adjoint) of SiLU(x) for dx, in one pass; nil for a nil dx.
// It panics if x is nil or the shapes or dtypes differ.
func SiLUJVP(x, dx *Tensor) *Tensor { return activationGrad("SiLUJVP", bSiLUGrad, x, dx) }
