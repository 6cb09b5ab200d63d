package tensorhess

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
	"github.com/gadgen/gadgen/tensorops"
)

// hcase is the test of one function's helpers, on its parameters θ as a
// list of tensors (a struct's, in the order of its fields; a flat
// tensor's, alone), with the fixed inputs drawn once. Each function
// converts the list to the function's parameter and back; a nil helper is
// not generated for the function.
type hcase struct {
	// params draws the parameters and the fixed inputs (of dtype dt) and
	// returns the point's functions.
	params func(r *rand.Rand) []*T
	// at returns the case's functions at fixed inputs of dtype dt, drawn
	// from r.
	at func(r *rand.Rand, dt tensorops.DType) funcs
	// rel is the tolerance of the helpers against the Hessian of finite
	// differences, relative to its largest element.
	rel float64
}

// funcs are a function and its derivatives, on parameter lists.
type funcs struct {
	f         func(ps []*T) float64
	grad      func(ps []*T) []*T
	hvp       func(ps, v []*T) (float64, []*T)
	hvp2      func(ps, v1, v2 []*T) (float64, []*T, []*T)
	hessian   func(ps []*T) (float64, *T)
	hessdiag  func(ps []*T) (float64, []*T)
	laplacian func(ps []*T) (float64, float64)
}

// The perceptron's lists.
func (m *MLP) list() []*T { return []*T{m.W1, m.B1, m.W2, m.B2} }

func mlpOf(ps []*T) *MLP { return &MLP{W1: ps[0], B1: ps[1], W2: ps[2], B2: ps[3]} }

func mlpParams(r *rand.Rand) []*T {
	return []*T{randn(r, 3, 4), randn(r, 4), randn(r, 4, 2), randn(r, 2)}
}

func randn(r *rand.Rand, shape ...int) *T { return tensorops.RandN(r, tensorops.Float64, shape...) }

func asType(ps []*T, dt tensorops.DType) []*T {
	out := make([]*T, len(ps))
	for i, p := range ps {
		if p != nil {
			out[i] = tensorops.AsType(p, dt)
		}
	}
	return out
}

// mlpData draws a batch and its targets.
func mlpData(r *rand.Rand, dt tensorops.DType) (x, y *T) {
	return tensorops.AsType(randn(r, 5, 3), dt), tensorops.AsType(randn(r, 5, 2), dt)
}

// The deep perceptron's lists: its layers, the normalization's scale and
// shift, the output layer, the last affine map's scale and shift.
func (d *Deep) list() []*T {
	return append(slices.Clone(d.Layers), d.Norm.Scale, d.Norm.Shift, d.Out, d.Post.Scale, d.Post.Shift)
}

// deepFixed is the number of tensors of Deep besides its layers.
const deepFixed = 5

func deepOf(ps []*T) *Deep {
	n := len(ps) - deepFixed
	return &Deep{Layers: slices.Clone(ps[:n]), Norm: Affine{Scale: ps[n], Shift: ps[n+1]}, Out: ps[n+2],
		Post: &Affine{Scale: ps[n+3], Shift: ps[n+4]}}
}

func deepParams(r *rand.Rand) []*T {
	return []*T{randn(r, 3, 4), randn(r, 4, 3), randn(r, 3), randn(r, 3), randn(r, 3, 2), randn(r, 2), randn(r, 2)}
}

// newDeepBuffer returns a gradient's buffer for a perceptron of n
// layers, sized by hand: the gradient's convention, which the helpers
// need not.
func newDeepBuffer(n int) *Deep { return &Deep{Layers: make([]*T, n), Post: &Affine{}} }

func classOf(ps []*T) *Classifier { return &Classifier{W: ps[0], B: ps[1]} }

func (c *Classifier) list() []*T { return []*T{c.W, c.B} }

// classData draws a batch and its one-hot labels.
func classData(r *rand.Rand, dt tensorops.DType) (x, labels *T) {
	return tensorops.AsType(randn(r, 6, 3), dt), tensorops.OneHot([]int{0, 1, 2, 3, 1, 2}, 4, dt)
}

// The perceptron of layers in a slice of structs: its lists are the
// layers' tensors in order, W then B.
func (s *Stack) list() []*T {
	var ts []*T
	for _, l := range s.Ls {
		ts = append(ts, l.W, l.B)
	}
	return ts
}

func stackOf(ps []*T) *Stack {
	s := &Stack{}
	for i := 0; i < len(ps); i += 2 {
		s.Ls = append(s.Ls, Layer{W: ps[i], B: ps[i+1]})
	}
	return s
}

func stackParams(r *rand.Rand) []*T {
	return []*T{randn(r, 3, 4), randn(r, 4), randn(r, 4, 2), randn(r, 2)}
}

// The perceptron of layers in a slice of pointers: In, the layers, Out.
func (w *Wrapped) list() []*T {
	ts := []*T{w.In}
	for _, l := range w.Ls {
		ts = append(ts, l.W, l.B)
	}
	return append(ts, w.Out)
}

func wrappedOf(ps []*T) *Wrapped {
	w := &Wrapped{In: ps[0], Out: ps[len(ps)-1]}
	for i := 1; i < len(ps)-1; i += 2 {
		w.Ls = append(w.Ls, &Layer{W: ps[i], B: ps[i+1]})
	}
	return w
}

func wrappedParams(r *rand.Rand) []*T {
	return []*T{randn(r, 3, 4), randn(r, 4, 3), randn(r, 3), randn(r, 3, 4), randn(r, 4), randn(r, 4, 2)}
}

// newWrappedBuffer returns a gradient's buffer for a Wrapped of n layers,
// its layers allocated by hand (the gradient's convention).
func newWrappedBuffer(n int) *Wrapped {
	w := &Wrapped{Ls: make([]*Layer, n)}
	for i := range w.Ls {
		w.Ls[i] = &Layer{}
	}
	return w
}

// towerBiases is the number of biases of each block of the towers the
// tests draw: the blocks' []*Tensor fields differ in length.
var towerBiases = []int{2, 0}

// The tower's lists: each block's W, biases, Norm.Scale, Norm.Shift,
// Post.Scale, Post.Shift, then Out.
func (t *Tower) list() []*T {
	var ts []*T
	for _, b := range t.Blocks {
		ts = append(append(append(ts, b.W), b.Bs...), b.Norm.Scale, b.Norm.Shift, b.Post.Scale, b.Post.Shift)
	}
	return append(ts, t.Out)
}

func towerOf(ps []*T) *Tower {
	t := &Tower{}
	for _, nb := range towerBiases {
		t.Blocks = append(t.Blocks, Block{W: ps[0], Bs: slices.Clone(ps[1 : 1+nb]),
			Norm: Affine{Scale: ps[1+nb], Shift: ps[2+nb]}, Post: &Affine{Scale: ps[3+nb], Shift: ps[4+nb]}})
		ps = ps[5+nb:]
	}
	t.Out = ps[0]
	return t
}

func towerParams(r *rand.Rand) []*T {
	var ps []*T
	for _, nb := range towerBiases {
		ps = append(ps, tensorops.Scale(randn(r, 3, 3), 0.5))
		for range nb {
			ps = append(ps, randn(r, 3))
		}
		ps = append(ps, randn(r, 3), randn(r, 3), randn(r, 3), randn(r, 3))
	}
	return append(ps, randn(r, 3, 2))
}

// newTowerBuffer returns a gradient's buffer for a tower of the tests'
// shape, sized by hand (the gradient's convention).
func newTowerBuffer() *Tower {
	t := &Tower{}
	for _, nb := range towerBiases {
		t.Blocks = append(t.Blocks, Block{Bs: make([]*T, nb), Post: &Affine{}})
	}
	return t
}

// flat returns the functions of a function of one tensor.
func flat(f func(x *T) float64, grad func(x *T) (float64, *T), hvp func(x, v *T) (float64, *T),
	hessian func(x *T) (float64, *T), hessdiag func(x *T) (float64, *T), laplacian func(x *T) (float64, float64)) funcs {
	return funcs{
		f:    func(ps []*T) float64 { return f(ps[0]) },
		grad: func(ps []*T) []*T { _, g := grad(ps[0]); return []*T{g} },
		hvp: func(ps, v []*T) (float64, []*T) {
			f, hv := hvp(ps[0], v[0])
			return f, []*T{hv}
		},
		hessian: func(ps []*T) (float64, *T) { return hessian(ps[0]) },
		hessdiag: func(ps []*T) (float64, []*T) {
			f, d := hessdiag(ps[0])
			return f, []*T{d}
		},
		laplacian: func(ps []*T) (float64, float64) { return laplacian(ps[0]) },
	}
}

var cases = map[string]hcase{
	"MLPLoss (pointer)": {params: mlpParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x, y := mlpData(r, dt)
		return funcs{
			f: func(ps []*T) float64 { return MLPLoss(mlpOf(ps), x, y) },
			grad: func(ps []*T) []*T {
				var g MLP // no sizing, nil fields
				MLPLossGrad(mlpOf(ps), &g, x, y)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := MLPLossHVP(mlpOf(ps), mlpOf(v), x, y)
				return f, hv.list()
			},
			hvp2: func(ps, v1, v2 []*T) (float64, []*T, []*T) {
				f, hv1, hv2 := MLPLossHVP2(mlpOf(ps), mlpOf(v1), mlpOf(v2), x, y)
				return f, hv1.list(), hv2.list()
			},
			hessian: func(ps []*T) (float64, *T) { return MLPLossHessian(mlpOf(ps), x, y) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := MLPLossHessDiag(mlpOf(ps), x, y)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return MLPLossLaplacian(mlpOf(ps), x, y) },
		}
	}},
	"MLPLossV (value)": {params: mlpParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x, y := mlpData(r, dt)
		return funcs{
			f: func(ps []*T) float64 { return MLPLossV(*mlpOf(ps), x, y) },
			grad: func(ps []*T) []*T {
				_, g := MLPLossVGrad(*mlpOf(ps), x, y)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := MLPLossVHVP(*mlpOf(ps), *mlpOf(v), x, y)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return MLPLossVHessian(*mlpOf(ps), x, y) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := MLPLossVHessDiag(*mlpOf(ps), x, y)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return MLPLossVLaplacian(*mlpOf(ps), x, y) },
		}
	}},
	"MLP.Loss (receiver)": {params: mlpParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x, y := mlpData(r, dt)
		return funcs{
			f: func(ps []*T) float64 { return mlpOf(ps).Loss(x, y) },
			grad: func(ps []*T) []*T {
				var g MLP
				mlpOf(ps).LossGrad(&g, x, y)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := mlpOf(ps).LossHVP(mlpOf(v), x, y)
				return f, hv.list()
			},
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := mlpOf(ps).LossHessDiag(x, y)
				return f, d.list()
			},
		}
	}},
	"DeepLoss (pointer, []*Tensor and nested struct)": {params: deepParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 4, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return DeepLoss(deepOf(ps), x) },
			grad: func(ps []*T) []*T {
				g := newDeepBuffer(len(ps) - deepFixed)
				DeepLossGrad(deepOf(ps), g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := DeepLossHVP(deepOf(ps), deepOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return DeepLossHessian(deepOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := DeepLossHessDiag(deepOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return DeepLossLaplacian(deepOf(ps), x) },
		}
	}},
	"DeepLossV (value, []*Tensor and nested struct)": {params: deepParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 4, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return DeepLossV(*deepOf(ps), x) },
			grad: func(ps []*T) []*T {
				g := newDeepBuffer(len(ps) - deepFixed)
				DeepLossVGrad(*deepOf(ps), g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := DeepLossVHVP(*deepOf(ps), *deepOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return DeepLossVHessian(*deepOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := DeepLossVHessDiag(*deepOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return DeepLossVLaplacian(*deepOf(ps), x) },
		}
	}},
	"StackLoss (pointer, []Layer)": {params: stackParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 5, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return StackLoss(stackOf(ps), x) },
			grad: func(ps []*T) []*T {
				var g Stack
				StackLossGrad(stackOf(ps), &g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := StackLossHVP(stackOf(ps), stackOf(v), x)
				return f, hv.list()
			},
			hvp2: func(ps, v1, v2 []*T) (float64, []*T, []*T) {
				f, hv1, hv2 := StackLossHVP2(stackOf(ps), stackOf(v1), stackOf(v2), x)
				return f, hv1.list(), hv2.list()
			},
			hessian: func(ps []*T) (float64, *T) { return StackLossHessian(stackOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := StackLossHessDiag(stackOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return StackLossLaplacian(stackOf(ps), x) },
		}
	}},
	"StackLossV (value, []Layer)": {params: stackParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 5, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return StackLossV(*stackOf(ps), x) },
			grad: func(ps []*T) []*T {
				var g Stack
				StackLossVGrad(*stackOf(ps), &g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := StackLossVHVP(*stackOf(ps), *stackOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return StackLossVHessian(*stackOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := StackLossVHessDiag(*stackOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return StackLossVLaplacian(*stackOf(ps), x) },
		}
	}},
	"Stack.Loss (receiver, []Layer)": {params: stackParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 5, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return stackOf(ps).Loss(x) },
			grad: func(ps []*T) []*T {
				var g Stack
				stackOf(ps).LossGrad(&g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := stackOf(ps).LossHVP(stackOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return stackOf(ps).LossHessian(x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := stackOf(ps).LossHessDiag(x)
				return f, d.list()
			},
		}
	}},
	"WrappedLoss (pointer, []*Layer)": {params: wrappedParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 5, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return WrappedLoss(wrappedOf(ps), x) },
			grad: func(ps []*T) []*T {
				g := newWrappedBuffer((len(ps) - 2) / 2)
				WrappedLossGrad(wrappedOf(ps), g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := WrappedLossHVP(wrappedOf(ps), wrappedOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return WrappedLossHessian(wrappedOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := WrappedLossHessDiag(wrappedOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return WrappedLossLaplacian(wrappedOf(ps), x) },
		}
	}},
	"TowerLoss (pointer, []Block with []*Tensor and nested structs)": {params: towerParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 4, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return TowerLoss(towerOf(ps), x) },
			grad: func(ps []*T) []*T {
				g := newTowerBuffer()
				TowerLossGrad(towerOf(ps), g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := TowerLossHVP(towerOf(ps), towerOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return TowerLossHessian(towerOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := TowerLossHessDiag(towerOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return TowerLossLaplacian(towerOf(ps), x) },
		}
	}},
	"TowerLossV (value, []Block with []*Tensor and nested structs)": {params: towerParams, rel: 1e-6, at: func(r *rand.Rand, dt tensorops.DType) funcs {
		x := tensorops.AsType(randn(r, 4, 3), dt)
		return funcs{
			f: func(ps []*T) float64 { return TowerLossV(*towerOf(ps), x) },
			grad: func(ps []*T) []*T {
				g := newTowerBuffer()
				TowerLossVGrad(*towerOf(ps), g, x)
				return g.list()
			},
			hvp: func(ps, v []*T) (float64, []*T) {
				f, hv := TowerLossVHVP(*towerOf(ps), *towerOf(v), x)
				return f, hv.list()
			},
			hessian: func(ps []*T) (float64, *T) { return TowerLossVHessian(*towerOf(ps), x) },
			hessdiag: func(ps []*T) (float64, []*T) {
				f, d := TowerLossVHessDiag(*towerOf(ps), x)
				return f, d.list()
			},
			laplacian: func(ps []*T) (float64, float64) { return TowerLossVLaplacian(*towerOf(ps), x) },
		}
	}},
	"ClassLoss (a classifier's cross-entropy, struct)": {params: func(r *rand.Rand) []*T { return []*T{randn(r, 3, 4), randn(r, 4)} }, rel: 1e-6,
		at: func(r *rand.Rand, dt tensorops.DType) funcs {
			x, labels := classData(r, dt)
			return funcs{
				f: func(ps []*T) float64 { return ClassLoss(classOf(ps), x, labels) },
				grad: func(ps []*T) []*T {
					var g Classifier
					ClassLossGrad(classOf(ps), &g, x, labels)
					return g.list()
				},
				hvp: func(ps, v []*T) (float64, []*T) {
					f, hv := ClassLossHVP(classOf(ps), classOf(v), x, labels)
					return f, hv.list()
				},
				hessian: func(ps []*T) (float64, *T) { return ClassLossHessian(classOf(ps), x, labels) },
				hessdiag: func(ps []*T) (float64, []*T) {
					f, d := ClassLossHessDiag(classOf(ps), x, labels)
					return f, d.list()
				},
				laplacian: func(ps []*T) (float64, float64) { return ClassLossLaplacian(classOf(ps), x, labels) },
			}
		}},
	"ClassLossFlat (a classifier's cross-entropy, matrix)": {params: func(r *rand.Rand) []*T { return []*T{randn(r, 3, 4)} }, rel: 1e-6,
		at: func(r *rand.Rand, dt tensorops.DType) funcs {
			x, labels := classData(r, dt)
			return flat(func(w *T) float64 { return ClassLossFlat(w, x, labels) },
				func(w *T) (float64, *T) { return ClassLossFlatGrad(w, x, labels) },
				func(w, v *T) (float64, *T) { return ClassLossFlatHVP(w, v, x, labels) },
				func(w *T) (float64, *T) { return ClassLossFlatHessian(w, x, labels) },
				func(w *T) (float64, *T) { return ClassLossFlatHessDiag(w, x, labels) },
				func(w *T) (float64, float64) { return ClassLossFlatLaplacian(w, x, labels) })
		}},
	"Rank0": {params: func(r *rand.Rand) []*T { return []*T{randn(r)} }, rel: 1e-6,
		at: func(*rand.Rand, tensorops.DType) funcs {
			return flat(Rank0, Rank0Grad, Rank0HVP, Rank0Hessian, Rank0HessDiag, Rank0Laplacian)
		}},
	"Rank1": {params: func(r *rand.Rand) []*T { return []*T{randn(r, 5)} }, rel: 1e-6,
		at: func(*rand.Rand, tensorops.DType) funcs {
			return flat(Rank1, Rank1Grad, Rank1HVP, Rank1Hessian, Rank1HessDiag, Rank1Laplacian)
		}},
	"Rank3": {params: func(r *rand.Rand) []*T { return []*T{randn(r, 2, 3, 2)} }, rel: 1e-6,
		at: func(*rand.Rand, tensorops.DType) funcs {
			return flat(Rank3, Rank3Grad, Rank3HVP, Rank3Hessian, Rank3HessDiag, Rank3Laplacian)
		}},
}

// fdHessian returns the Hessian of fn at ps by central differences of
// the gradient: column i is (∇f(θ + h·eᵢ) − ∇f(θ − h·eᵢ))/2h, then
// (H + Hᵀ)/2, as a [n, n] float64 tensor.
func fdHessian(fn funcs, ps []*T) *T {
	n := tensorops.ParamsSize(ps)
	x := tensorops.ParamsFlatten(ps, ps).Float64s()
	const h = 1e-5
	cols := make([]*T, n)
	grad := func(x []float64) *T { return tensorops.ParamsFlatten(fn.grad(tensorops.ParamsUnflatten(x, ps)), ps) }
	for i := range n {
		xp, xm := slices.Clone(x), slices.Clone(x)
		xp[i] += h
		xm[i] -= h
		cols[i] = tensorops.Reshape(tensorops.Scale(tensorops.Sub(grad(xp), grad(xm)), 1/(2*h)), n, 1)
	}
	hm := tensorops.Concat(1, cols...)
	return tensorops.Scale(tensorops.Add(hm, tensorops.Transpose(hm, 1, 0)), 0.5)
}

// checker compares the results of one case.
type checker struct {
	t     *testing.T
	where string
	scale float64 // the tolerance's scale: the largest element of the Hessian
	rel   float64
}

func (c *checker) vec(what string, got, want *T) {
	c.t.Helper()
	g, w := tensorops.AsType(got, tensorops.Float64).Float64s(), tensorops.AsType(want, tensorops.Float64).Float64s()
	if len(g) != len(w) {
		c.t.Errorf("%s: %s: got %d elements, want %d", c.where, what, len(g), len(w))
		return
	}
	for i := range w {
		if !(math.Abs(g[i]-w[i]) <= c.rel*(c.scale+math.Abs(w[i]))) {
			c.t.Errorf("%s: %s: element %d: got %v, want %v (tolerance %g relative to %g)", c.where, what, i, g[i], w[i], c.rel, c.scale)
			return
		}
	}
}

func (c *checker) scalar(what string, got, want float64) {
	c.t.Helper()
	c.vec(what, tensorops.Full(tensorops.Float64, got), tensorops.Full(tensorops.Float64, want))
}

// value checks a helper's value against F's, bit for bit.
func (c *checker) value(what string, got, want float64) {
	c.t.Helper()
	if got != want {
		c.t.Errorf("%s: %s returns F = %v, want %v", c.where, what, got, want)
	}
}

// results are the helpers' results at one point.
type results struct {
	hv, hv1, hv2, diag *T // flattened
	h                  *T
	lap                float64
}

// run evaluates the helpers of fn at ps along v, v2 and checks their
// values against F's.
func run(c *checker, fn funcs, ps, v, v2 []*T) results {
	var res results
	fx := fn.f(ps)
	flat := func(ts []*T) *T { return tensorops.ParamsFlatten(ts, ps) }
	if fn.hvp != nil {
		f, hv := fn.hvp(ps, v)
		c.value("HVP", f, fx)
		for i, t := range hv {
			if t == nil {
				c.t.Errorf("%s: HVP: tensor %d is nil, want zeros", c.where, i)
			}
		}
		res.hv = flat(hv)
	}
	if fn.hvp2 != nil {
		f, hv1, hv2 := fn.hvp2(ps, v, v2)
		c.value("HVP lanes=2", f, fx)
		res.hv1, res.hv2 = flat(hv1), flat(hv2)
	}
	if fn.hessian != nil {
		f, h := fn.hessian(ps)
		c.value("Hessian", f, fx)
		res.h = h
	}
	if fn.hessdiag != nil {
		f, d := fn.hessdiag(ps)
		c.value("HessDiag", f, fx)
		for i, t := range d {
			if want := ps[i].Shape(); !slices.Equal(t.Shape(), want) || t.DType() != ps[i].DType() {
				c.t.Errorf("%s: HessDiag: tensor %d has shape %v and dtype %v, want %v and %v", c.where, i, t.Shape(), t.DType(), want, ps[i].DType())
			}
		}
		res.diag = flat(d)
	}
	if fn.laplacian != nil {
		f, lap := fn.laplacian(ps)
		c.value("Laplacian", f, fx)
		res.lap = lap
	}
	return res
}

// TestHelpers checks every helper of every case, at two random points of
// its parameters, in float64 against the Hessian of central differences
// of the generated gradient (the HVPs against H·v, the Hessian against H,
// the diagonal against H's, the Laplacian against its trace), and in
// float32 against the float64 results at the same (rounded) point.
func TestHelpers(t *testing.T) {
	for name, hc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := fdcheck.NewRand(fdcheck.Seed(name))
			for point := range 2 {
				ps := asType(asType(hc.params(r), tensorops.Float32), tensorops.Float64) // float32 represents it
				v := asType(asType(hc.params(r), tensorops.Float32), tensorops.Float64)
				v2 := asType(asType(hc.params(r), tensorops.Float32), tensorops.Float64)
				seed := r.Uint64()
				fn64 := hc.at(rand.New(rand.NewPCG(seed, 1)), tensorops.Float64)
				if fn64.hvp == nil && fn64.hvp2 == nil && fn64.hessian == nil && fn64.hessdiag == nil && fn64.laplacian == nil {
					t.Fatal("the case has no helper: nothing to check")
				}
				h := fdHessian(fn64, ps)
				scale := tensorops.MaxAll(tensorops.Abs(h))
				c := &checker{t: t, where: fmt.Sprintf("float64, point %d", point), scale: scale, rel: hc.rel}
				res := run(c, fn64, ps, v, v2)
				flatV := func(v []*T) *T { return tensorops.MatMul(h, tensorops.ParamsFlatten(v, ps)) }
				if res.hv != nil {
					c.vec("HVP", res.hv, flatV(v))
				}
				if res.hv1 != nil {
					c.vec("HVP lanes=2, lane 1", res.hv1, flatV(v))
					c.vec("HVP lanes=2, lane 2", res.hv2, flatV(v2))
				}
				if res.h != nil {
					c.vec("Hessian", res.h, h)
					if !res.h.IsSymmetric() {
						t.Errorf("%s: the Hessian is not marked symmetric", c.where)
					}
				}
				if res.diag != nil {
					c.vec("HessDiag", res.diag, tensorops.DiagPart(h))
				}
				if fn64.laplacian != nil {
					c.scalar("Laplacian", res.lap, tensorops.SumAll(tensorops.DiagPart(h)))
				}

				// float32 against float64 at the same point.
				fn32 := hc.at(rand.New(rand.NewPCG(seed, 1)), tensorops.Float32)
				c32 := &checker{t: t, where: fmt.Sprintf("float32, point %d", point), scale: scale, rel: 2e-4}
				r32 := run(c32, fn32, asType(ps, tensorops.Float32), asType(v, tensorops.Float32), asType(v2, tensorops.Float32))
				for _, p := range []struct {
					what      string
					got, want *T
				}{{"HVP", r32.hv, res.hv}, {"HVP lanes=2, lane 1", r32.hv1, res.hv1}, {"HVP lanes=2, lane 2", r32.hv2, res.hv2},
					{"Hessian", r32.h, res.h}, {"HessDiag", r32.diag, res.diag}} {
					if p.want == nil {
						continue
					}
					if p.got.DType() != tensorops.Float32 {
						t.Errorf("%s: %s has dtype %v, want float32", c32.where, p.what, p.got.DType())
					}
					c32.vec(p.what, p.got, p.want)
				}
				if fn32.laplacian != nil {
					c32.scalar("Laplacian", r32.lap, res.lap)
				}
			}
		})
	}
}

// TestGradients checks the gradients the Hessians of differences are
// taken of against central differences of F.
func TestGradients(t *testing.T) {
	for name, hc := range cases {
		t.Run(name, func(t *testing.T) {
			r := fdcheck.NewRand(fdcheck.Seed("grad " + name))
			ps := hc.params(r)
			fn := hc.at(r, tensorops.Float64)
			x := tensorops.ParamsFlatten(ps, ps).Float64s()
			f := func(x []float64) []float64 { return []float64{fn.f(tensorops.ParamsUnflatten(x, ps))} }
			jvp := func(x, v []float64) []float64 {
				g := tensorops.ParamsFlatten(fn.grad(tensorops.ParamsUnflatten(x, ps)), ps)
				return []float64{fdcheck.Dot(g.Float64s(), v)}
			}
			v := fdcheck.Direction(r, len(x))
			if err := fdcheck.Check(f, jvp, x, v, nil); err != nil {
				t.Errorf("gradient against central differences: %v", err)
			}
		})
	}
}

// TestHVPShapeChecked checks that the HVP of a struct panics, naming
// both, when a slice of the direction (a []*Tensor, a slice of structs, a
// []*Tensor in an element) has another length than the model's, and when
// one of its nested structs by pointer (a field, an element of a []*S) is
// nil; and that a nil tensor in a direction is zero.
func TestHVPShapeChecked(t *testing.T) {
	r := fdcheck.NewRand(1)
	x := randn(r, 4, 3)
	xs := randn(r, 5, 3)
	for _, c := range []struct {
		name   string
		params func(r *rand.Rand) []*T
		// hvp calls the HVP at ps along v, changed by bad when set.
		hvp  func(ps, v []*T, bad bool) []*T
		want string
	}{
		{"Deep.Layers short", deepParams, func(ps, v []*T, bad bool) []*T {
			dv := deepOf(v)
			if bad {
				dv.Layers = dv.Layers[:1]
			}
			_, hv := DeepLossHVP(deepOf(ps), dv, x)
			return hv.list()
		}, "DeepLossHVP: len(v.Layers) != len(d.Layers)"},
		{"Deep.Post nil", deepParams, func(ps, v []*T, bad bool) []*T {
			dv := deepOf(v)
			if bad {
				dv.Post = nil
			}
			_, hv := DeepLossHVP(deepOf(ps), dv, x)
			return hv.list()
		}, "DeepLossHVP: v.Post is nil"},
		{"Stack nil", stackParams, func(ps, v []*T, bad bool) []*T {
			sv := stackOf(v)
			if bad {
				sv = nil
			}
			_, hv := StackLossHVP(stackOf(ps), sv, xs)
			return hv.list()
		}, "StackLossHVP: v is nil"},
		{"Stack.Ls short", stackParams, func(ps, v []*T, bad bool) []*T {
			sv := stackOf(v)
			if bad {
				sv.Ls = sv.Ls[:1]
			}
			_, hv := StackLossHVP(stackOf(ps), sv, xs)
			return hv.list()
		}, "StackLossHVP: len(v.Ls) != len(s.Ls)"},
		{"Wrapped.Ls element nil", wrappedParams, func(ps, v []*T, bad bool) []*T {
			wv := wrappedOf(v)
			if bad {
				wv.Ls[1] = nil
			}
			_, hv := WrappedLossHVP(wrappedOf(ps), wv, xs)
			return hv.list()
		}, "WrappedLossHVP: v.Ls[j] is nil"},
		{"Tower.Blocks[j].Bs long", towerParams, func(ps, v []*T, bad bool) []*T {
			tv := towerOf(v)
			if bad {
				tv.Blocks[1].Bs = append(tv.Blocks[1].Bs, nil)
			}
			_, hv := TowerLossHVP(towerOf(ps), tv, x)
			return hv.list()
		}, "TowerLossHVP: len(v.Blocks[j].Bs) != len(t.Blocks[j].Bs)"},
		{"Tower.Blocks[j].Post nil", towerParams, func(ps, v []*T, bad bool) []*T {
			tv := towerOf(v)
			if bad {
				tv.Blocks[0].Post = nil
			}
			_, hv := TowerLossHVP(towerOf(ps), tv, x)
			return hv.list()
		}, "TowerLossHVP: v.Blocks[j].Post is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps, v := c.params(r), c.params(r)
			func() {
				defer func() {
					if got := fmt.Sprint(recover()); got != c.want {
						t.Errorf("panic %q, want %q", got, c.want)
					}
				}()
				c.hvp(ps, v, true)
			}()
			// A nil tensor in the direction: the same product as zeros,
			// another than along v.
			hv := tensorops.ParamsFlatten(c.hvp(ps, v, false), ps)
			v[1] = tensorops.ZerosLike(v[1])
			hvZ := tensorops.ParamsFlatten(c.hvp(ps, v, false), ps)
			v[1] = nil
			hvN := tensorops.ParamsFlatten(c.hvp(ps, v, false), ps)
			if diff := tensorops.MaxAbsDiff(hvZ, hvN); diff != 0 {
				t.Errorf("a nil tensor in the direction gives another product than zeros: they differ by %g", diff)
			}
			if diff := tensorops.MaxAbsDiff(hvZ, hv); diff == 0 {
				t.Errorf("zeroing a tensor of the direction left the product unchanged")
			}
		})
	}
}

// TestNoParameters checks the helpers of a model without parameters (a
// perceptron of no layers) and of a tensor without elements: the
// Hessian is an empty [0, 0] tensor of the parameters' dtype, the
// diagonal and the HVP have the model's shape, the Laplacian is 0, and
// each returns F's value.
func TestNoParameters(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed("TestNoParameters"))
	x := randn(r, 5, 3)
	s := &Stack{Ls: []Layer{}}
	want := StackLoss(s, x)
	check := func(what string, f float64, h *T, dt tensorops.DType) {
		t.Helper()
		if f != want {
			t.Errorf("%s: F = %v, want %v", what, f, want)
		}
		if h != nil && (!slices.Equal(h.Shape(), []int{0, 0}) || h.DType() != dt || !h.IsSymmetric()) {
			t.Errorf("%s: the Hessian has shape %v, dtype %v, symmetric %v; want [0 0], %v, true", what, h.Shape(), h.DType(), h.IsSymmetric(), dt)
		}
	}
	f, h := StackLossHessian(s, x)
	check("StackLossHessian", f, h, tensorops.Float64)
	f, h = StackLossVHessian(*s, x)
	check("StackLossVHessian", f, h, tensorops.Float64)
	f, d := StackLossHessDiag(s, x)
	check("StackLossHessDiag", f, nil, 0)
	if d == nil || d.Ls == nil || len(d.Ls) != 0 {
		t.Errorf("StackLossHessDiag: got %+v, want a Stack of no layers", d)
	}
	f, hv := StackLossHVP(s, &Stack{Ls: []Layer{}}, x)
	check("StackLossHVP", f, nil, 0)
	if hv == nil || len(hv.Ls) != 0 {
		t.Errorf("StackLossHVP: got %+v, want a Stack of no layers", hv)
	}
	f, lap := StackLossLaplacian(s, x)
	check("StackLossLaplacian", f, nil, 0)
	if lap != 0 {
		t.Errorf("StackLossLaplacian: Laplacian %v, want 0", lap)
	}

	// A matrix of no elements, in float32.
	x32, labels := classData(r, tensorops.Float32)
	x32 = tensorops.Slice(x32, 1, 0, 0)
	w := tensorops.ZerosOf(tensorops.Float32, 0, 4)
	want = ClassLossFlat(w, x32, labels)
	f, h = ClassLossFlatHessian(w, x32, labels)
	check("ClassLossFlatHessian", f, h, tensorops.Float32)
}

// TestNesting checks the JVP of a function that calls a generated
// gradient of a struct of tensors (MLPGradOf): along m's tangent v, with
// zero buffers g and dg (nil fields), g receives the gradient and dg the
// HVP.
func TestNesting(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed("TestNesting"))
	ps, v := mlpParams(r), mlpParams(r)
	x, y := mlpData(r, tensorops.Float64)
	var g, dg MLP
	f, _ := MLPGradOfJVP(mlpOf(ps), mlpOf(v), &g, &dg, x, y)
	wantF, hv := MLPLossHVP(mlpOf(ps), mlpOf(v), x, y)
	if f != wantF {
		t.Errorf("value %v, want %v", f, wantF)
	}
	var want MLP
	MLPLossGrad(mlpOf(ps), &want, x, y)
	for _, p := range []struct {
		what      string
		got, want []*T
	}{{"gradient", g.list(), want.list()}, {"HVP", dg.list(), hv.list()}} {
		a, b := tensorops.ParamsFlatten(p.got, ps), tensorops.ParamsFlatten(p.want, ps)
		if d := tensorops.MaxAbsDiff(a, b); !(d <= 1e-12*(1+tensorops.MaxAll(tensorops.Abs(b)))) {
			t.Errorf("%s: differs from the generated one by %g", p.what, d)
		}
	}
}

// TestNestingTaylor checks the second Taylor coefficient of the gradients
// that MLPGradOf and DeepGradOf accumulate into g (the latter through the
// fused tensorops.AccumulateMatMulGradB), along the line m + t·v: half the
// derivative of the HVP along v, ∇²F(m + t·v)·v, at t = 0, by central
// differences of the generated HVP; and the first coefficient, the HVP.
func TestNestingTaylor(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed("TestNestingTaylor"))
	x, y := mlpData(r, tensorops.Float64)
	xd := randn(r, 4, 3)
	for _, c := range []struct {
		name   string
		params func(r *rand.Rand) []*T
		// taylor returns the coefficients 1 and 2 of the gradient along
		// ps + t·v; hvp the HVP at ps along v.
		taylor func(ps, v []*T) (g1, g2 []*T)
		hvp    func(ps, v []*T) []*T
	}{
		{"MLPGradOf", mlpParams,
			func(ps, v []*T) ([]*T, []*T) {
				var g, g1, g2 MLP
				MLPGradOfTaylor(mlpOf(ps), mlpOf(v), mlpOf(make([]*T, len(ps))), &g, &g1, &g2, x, y)
				return g1.list(), g2.list()
			},
			func(ps, v []*T) []*T { _, hv := MLPLossHVP(mlpOf(ps), mlpOf(v), x, y); return hv.list() }},
		{"DeepGradOf", deepParams,
			func(ps, v []*T) ([]*T, []*T) {
				n := len(ps) - deepFixed
				g, g1, g2 := newDeepBuffer(n), newDeepBuffer(n), newDeepBuffer(n)
				DeepGradOfTaylor(deepOf(ps), deepOf(v), deepOf(make([]*T, len(ps))), g, g1, g2, xd)
				return g1.list(), g2.list()
			},
			func(ps, v []*T) []*T { _, hv := DeepLossHVP(deepOf(ps), deepOf(v), xd); return hv.list() }},
	} {
		ps, v := c.params(r), c.params(r)
		g1, g2 := c.taylor(ps, v)
		const h = 1e-5
		at := func(s float64) *T {
			p := make([]*T, len(ps))
			for i := range ps {
				p[i] = tensorops.Add(ps[i], tensorops.Scale(v[i], s))
			}
			return tensorops.ParamsFlatten(c.hvp(p, v), ps)
		}
		want := tensorops.Scale(tensorops.Sub(at(h), at(-h)), 1/(4*h))
		scale := tensorops.MaxAll(tensorops.Abs(want))
		if d := tensorops.MaxAbsDiff(tensorops.ParamsFlatten(g2, ps), want); !(d <= 1e-6*(1+scale)) {
			t.Errorf("%s: coefficient 2 of the gradient differs from the differences of the HVP by %g (largest element %g)", c.name, d, scale)
		}
		hv := tensorops.ParamsFlatten(c.hvp(ps, v), ps)
		if d := tensorops.MaxAbsDiff(tensorops.ParamsFlatten(g1, ps), hv); !(d <= 1e-12*(1+tensorops.MaxAll(tensorops.Abs(hv)))) {
			t.Errorf("%s: coefficient 1 of the gradient differs from the HVP by %g", c.name, d)
		}
	}
}
