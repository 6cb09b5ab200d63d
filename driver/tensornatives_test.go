package driver

// This file defines tensorNatives, the Go implementations of the tensor
// runtime's functions for the IR interpreter: generated code calls them,
// and the interpreter (which must not import the runtime) runs them as
// natives on opaque tensors. TestTensorNativesComplete checks that the
// table lists every exported function and method of package tensorops.

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/templates"
	"github.com/gadgen/gadgen/tensorops"
)

// tensorFuncs maps the full name of every exported function and method of
// package tensorops (types.Func.FullName) to the function.
var tensorFuncs = map[string]any{
	"(*github.com/gadgen/gadgen/tensorops.Tensor).At":            (*tensorops.Tensor).At,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Clone":         (*tensorops.Tensor).Clone,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Contiguous":    (*tensorops.Tensor).Contiguous,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).DType":         (*tensorops.Tensor).DType,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Dense":         (*tensorops.Tensor).Dense,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Device":        (*tensorops.Tensor).Device,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Dim":           (*tensorops.Tensor).Dim,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Dims":          (*tensorops.Tensor).Dims,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Float32s":      (*tensorops.Tensor).Float32s,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Float64s":      (*tensorops.Tensor).Float64s,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).IsContiguous":  (*tensorops.Tensor).IsContiguous,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).IsSymmetric":   (*tensorops.Tensor).IsSymmetric,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Item":          (*tensorops.Tensor).Item,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).SameShape":     (*tensorops.Tensor).SameShape,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Set":           (*tensorops.Tensor).Set,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Shape":         (*tensorops.Tensor).Shape,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Size":          (*tensorops.Tensor).Size,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).Strides":       (*tensorops.Tensor).Strides,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).String":        (*tensorops.Tensor).String,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).To":            (*tensorops.Tensor).To,
	"(*github.com/gadgen/gadgen/tensorops.Tensor).VecDense":      (*tensorops.Tensor).VecDense,
	"(github.com/gadgen/gadgen/tensorops.DType).String":          tensorops.DType.String,
	"(github.com/gadgen/gadgen/tensorops.Device).String":         tensorops.Device.String,
	"(github.com/gadgen/gadgen/tensorops.DeviceKind).String":     tensorops.DeviceKind.String,
	"github.com/gadgen/gadgen/tensorops.Abs":                     tensorops.Abs,
	"github.com/gadgen/gadgen/tensorops.AbsTo":                   tensorops.AbsTo,
	"github.com/gadgen/gadgen/tensorops.Accumulate":              tensorops.Accumulate,
	"github.com/gadgen/gadgen/tensorops.AccumulateFloat32s":      tensorops.AccumulateFloat32s,
	"github.com/gadgen/gadgen/tensorops.AccumulateFloat64s":      tensorops.AccumulateFloat64s,
	"github.com/gadgen/gadgen/tensorops.AccumulateMatMulGradA":   tensorops.AccumulateMatMulGradA,
	"github.com/gadgen/gadgen/tensorops.AccumulateMatMulGradB":   tensorops.AccumulateMatMulGradB,
	"github.com/gadgen/gadgen/tensorops.AccumulateSumLike":       tensorops.AccumulateSumLike,
	"github.com/gadgen/gadgen/tensorops.Add":                     tensorops.Add,
	"github.com/gadgen/gadgen/tensorops.AddInto":                 tensorops.AddInto,
	"github.com/gadgen/gadgen/tensorops.AddScalar":               tensorops.AddScalar,
	"github.com/gadgen/gadgen/tensorops.AddScalarTo":             tensorops.AddScalarTo,
	"github.com/gadgen/gadgen/tensorops.AddTo":                   tensorops.AddTo,
	"github.com/gadgen/gadgen/tensorops.Affine":                  tensorops.Affine,
	"github.com/gadgen/gadgen/tensorops.AffineTo":                tensorops.AffineTo,
	"github.com/gadgen/gadgen/tensorops.AllClose":                tensorops.AllClose,
	"github.com/gadgen/gadgen/tensorops.ArgMax":                  tensorops.ArgMax,
	"github.com/gadgen/gadgen/tensorops.AsStrided":               tensorops.AsStrided,
	"github.com/gadgen/gadgen/tensorops.AsType":                  tensorops.AsType,
	"github.com/gadgen/gadgen/tensorops.AsTypeLike":              tensorops.AsTypeLike,
	"github.com/gadgen/gadgen/tensorops.AtGrad":                  tensorops.AtGrad,
	"github.com/gadgen/gadgen/tensorops.AtJVP":                   tensorops.AtJVP,
	"github.com/gadgen/gadgen/tensorops.AvgPool2D":               tensorops.AvgPool2D,
	"github.com/gadgen/gadgen/tensorops.AvgPool2DGrad":           tensorops.AvgPool2DGrad,
	"github.com/gadgen/gadgen/tensorops.BLAS":                    tensorops.BLAS,
	"github.com/gadgen/gadgen/tensorops.Basis":                   tensorops.Basis,
	"github.com/gadgen/gadgen/tensorops.Broadcast":               tensorops.Broadcast,
	"github.com/gadgen/gadgen/tensorops.BroadcastLike":           tensorops.BroadcastLike,
	"github.com/gadgen/gadgen/tensorops.Concat":                  tensorops.Concat,
	"github.com/gadgen/gadgen/tensorops.ConcatGrad":              tensorops.ConcatGrad,
	"github.com/gadgen/gadgen/tensorops.ConcatJVP":               tensorops.ConcatJVP,
	"github.com/gadgen/gadgen/tensorops.ConcatJVPGrad":           tensorops.ConcatJVPGrad,
	"github.com/gadgen/gadgen/tensorops.ConcatJVPJVP":            tensorops.ConcatJVPJVP,
	"github.com/gadgen/gadgen/tensorops.ConcatPlace":             tensorops.ConcatPlace,
	"github.com/gadgen/gadgen/tensorops.Conv2D":                  tensorops.Conv2D,
	"github.com/gadgen/gadgen/tensorops.Conv2DDilated":           tensorops.Conv2DDilated,
	"github.com/gadgen/gadgen/tensorops.Conv2DDilatedGradW":      tensorops.Conv2DDilatedGradW,
	"github.com/gadgen/gadgen/tensorops.Conv2DDilatedGradX":      tensorops.Conv2DDilatedGradX,
	"github.com/gadgen/gadgen/tensorops.Conv2DGradW":             tensorops.Conv2DGradW,
	"github.com/gadgen/gadgen/tensorops.Conv2DGradX":             tensorops.Conv2DGradX,
	"github.com/gadgen/gadgen/tensorops.Copy":                    tensorops.Copy,
	"github.com/gadgen/gadgen/tensorops.Cos":                     tensorops.Cos,
	"github.com/gadgen/gadgen/tensorops.CosTo":                   tensorops.CosTo,
	"github.com/gadgen/gadgen/tensorops.Diag":                    tensorops.Diag,
	"github.com/gadgen/gadgen/tensorops.DiagPart":                tensorops.DiagPart,
	"github.com/gadgen/gadgen/tensorops.Dim":                     tensorops.Dim,
	"github.com/gadgen/gadgen/tensorops.Div":                     tensorops.Div,
	"github.com/gadgen/gadgen/tensorops.DivTo":                   tensorops.DivTo,
	"github.com/gadgen/gadgen/tensorops.Dot":                     tensorops.Dot,
	"github.com/gadgen/gadgen/tensorops.Embedding":               tensorops.Embedding,
	"github.com/gadgen/gadgen/tensorops.Erf":                     tensorops.Erf,
	"github.com/gadgen/gadgen/tensorops.ErfTo":                   tensorops.ErfTo,
	"github.com/gadgen/gadgen/tensorops.Exp":                     tensorops.Exp,
	"github.com/gadgen/gadgen/tensorops.ExpTo":                   tensorops.ExpTo,
	"github.com/gadgen/gadgen/tensorops.ExpandAxis":              tensorops.ExpandAxis,
	"github.com/gadgen/gadgen/tensorops.ExpandLike":              tensorops.ExpandLike,
	"github.com/gadgen/gadgen/tensorops.Expm1":                   tensorops.Expm1,
	"github.com/gadgen/gadgen/tensorops.Expm1To":                 tensorops.Expm1To,
	"github.com/gadgen/gadgen/tensorops.Fill":                    tensorops.Fill,
	"github.com/gadgen/gadgen/tensorops.FromDense":               tensorops.FromDense,
	"github.com/gadgen/gadgen/tensorops.FromFloat32s":            tensorops.FromFloat32s,
	"github.com/gadgen/gadgen/tensorops.FromFloat64s":            tensorops.FromFloat64s,
	"github.com/gadgen/gadgen/tensorops.FromVecDense":            tensorops.FromVecDense,
	"github.com/gadgen/gadgen/tensorops.Full":                    tensorops.Full,
	"github.com/gadgen/gadgen/tensorops.FullLike":                tensorops.FullLike,
	"github.com/gadgen/gadgen/tensorops.Fuse":                    tensorops.Fuse,
	"github.com/gadgen/gadgen/tensorops.FuseInto":                tensorops.FuseInto,
	"github.com/gadgen/gadgen/tensorops.GELU":                    tensorops.GELU,
	"github.com/gadgen/gadgen/tensorops.GELUJVP":                 tensorops.GELUJVP,
	"github.com/gadgen/gadgen/tensorops.GELUTo":                  tensorops.GELUTo,
	"github.com/gadgen/gadgen/tensorops.Gather":                  tensorops.Gather,
	"github.com/gadgen/gadgen/tensorops.GatherGrad":              tensorops.GatherGrad,
	"github.com/gadgen/gadgen/tensorops.Gemm":                    tensorops.Gemm,
	"github.com/gadgen/gadgen/tensorops.Gram":                    tensorops.Gram,
	"github.com/gadgen/gadgen/tensorops.Log":                     tensorops.Log,
	"github.com/gadgen/gadgen/tensorops.Log1p":                   tensorops.Log1p,
	"github.com/gadgen/gadgen/tensorops.Log1pTo":                 tensorops.Log1pTo,
	"github.com/gadgen/gadgen/tensorops.LogSoftmax":              tensorops.LogSoftmax,
	"github.com/gadgen/gadgen/tensorops.LogSoftmaxJVP":           tensorops.LogSoftmaxJVP,
	"github.com/gadgen/gadgen/tensorops.LogSoftmaxVJP":           tensorops.LogSoftmaxVJP,
	"github.com/gadgen/gadgen/tensorops.LogSumExp":               tensorops.LogSumExp,
	"github.com/gadgen/gadgen/tensorops.LogTo":                   tensorops.LogTo,
	"github.com/gadgen/gadgen/tensorops.MatMul":                  tensorops.MatMul,
	"github.com/gadgen/gadgen/tensorops.MatMulEach":              tensorops.MatMulEach,
	"github.com/gadgen/gadgen/tensorops.MatMulGradA":             tensorops.MatMulGradA,
	"github.com/gadgen/gadgen/tensorops.MatMulGradAEach":         tensorops.MatMulGradAEach,
	"github.com/gadgen/gadgen/tensorops.MatMulGradB":             tensorops.MatMulGradB,
	"github.com/gadgen/gadgen/tensorops.MatMulShape":             tensorops.MatMulShape,
	"github.com/gadgen/gadgen/tensorops.MatMulSlice":             tensorops.MatMulSlice,
	"github.com/gadgen/gadgen/tensorops.MatMulT":                 tensorops.MatMulT,
	"github.com/gadgen/gadgen/tensorops.MatMulTTo":               tensorops.MatMulTTo,
	"github.com/gadgen/gadgen/tensorops.MatMulTo":                tensorops.MatMulTo,
	"github.com/gadgen/gadgen/tensorops.Max":                     tensorops.Max,
	"github.com/gadgen/gadgen/tensorops.MaxAbsDiff":              tensorops.MaxAbsDiff,
	"github.com/gadgen/gadgen/tensorops.MaxAll":                  tensorops.MaxAll,
	"github.com/gadgen/gadgen/tensorops.MaxAllGrad":              tensorops.MaxAllGrad,
	"github.com/gadgen/gadgen/tensorops.MaxAllJVP":               tensorops.MaxAllJVP,
	"github.com/gadgen/gadgen/tensorops.MaxGrad":                 tensorops.MaxGrad,
	"github.com/gadgen/gadgen/tensorops.MaxJVP":                  tensorops.MaxJVP,
	"github.com/gadgen/gadgen/tensorops.MaxPool2D":               tensorops.MaxPool2D,
	"github.com/gadgen/gadgen/tensorops.MaxPool2DGrad":           tensorops.MaxPool2DGrad,
	"github.com/gadgen/gadgen/tensorops.MaxPool2DJVP":            tensorops.MaxPool2DJVP,
	"github.com/gadgen/gadgen/tensorops.Maximum":                 tensorops.Maximum,
	"github.com/gadgen/gadgen/tensorops.MaximumTo":               tensorops.MaximumTo,
	"github.com/gadgen/gadgen/tensorops.Mean":                    tensorops.Mean,
	"github.com/gadgen/gadgen/tensorops.MeanAll":                 tensorops.MeanAll,
	"github.com/gadgen/gadgen/tensorops.MeanAllGrad":             tensorops.MeanAllGrad,
	"github.com/gadgen/gadgen/tensorops.MeanGrad":                tensorops.MeanGrad,
	"github.com/gadgen/gadgen/tensorops.Minimum":                 tensorops.Minimum,
	"github.com/gadgen/gadgen/tensorops.MinimumTo":               tensorops.MinimumTo,
	"github.com/gadgen/gadgen/tensorops.Mul":                     tensorops.Mul,
	"github.com/gadgen/gadgen/tensorops.MulTo":                   tensorops.MulTo,
	"github.com/gadgen/gadgen/tensorops.Neg":                     tensorops.Neg,
	"github.com/gadgen/gadgen/tensorops.NegTo":                   tensorops.NegTo,
	"github.com/gadgen/gadgen/tensorops.New":                     tensorops.New,
	"github.com/gadgen/gadgen/tensorops.OneHot":                  tensorops.OneHot,
	"github.com/gadgen/gadgen/tensorops.Ones":                    tensorops.Ones,
	"github.com/gadgen/gadgen/tensorops.OnesOf":                  tensorops.OnesOf,
	"github.com/gadgen/gadgen/tensorops.OrZerosLike":             tensorops.OrZerosLike,
	"github.com/gadgen/gadgen/tensorops.Outer":                   tensorops.Outer,
	"github.com/gadgen/gadgen/tensorops.Pad":                     tensorops.Pad,
	"github.com/gadgen/gadgen/tensorops.PadGrad":                 tensorops.PadGrad,
	"github.com/gadgen/gadgen/tensorops.ParamsBasis":             tensorops.ParamsBasis,
	"github.com/gadgen/gadgen/tensorops.ParamsFlatten":           tensorops.ParamsFlatten,
	"github.com/gadgen/gadgen/tensorops.ParamsHessian":           tensorops.ParamsHessian,
	"github.com/gadgen/gadgen/tensorops.ParamsOrZeros":           tensorops.ParamsOrZeros,
	"github.com/gadgen/gadgen/tensorops.ParamsSize":              tensorops.ParamsSize,
	"github.com/gadgen/gadgen/tensorops.ParamsUnflatten":         tensorops.ParamsUnflatten,
	"github.com/gadgen/gadgen/tensorops.Pow":                     tensorops.Pow,
	"github.com/gadgen/gadgen/tensorops.PowScalar":               tensorops.PowScalar,
	"github.com/gadgen/gadgen/tensorops.PowScalarTo":             tensorops.PowScalarTo,
	"github.com/gadgen/gadgen/tensorops.PowTo":                   tensorops.PowTo,
	"github.com/gadgen/gadgen/tensorops.RandN":                   tensorops.RandN,
	"github.com/gadgen/gadgen/tensorops.RandU":                   tensorops.RandU,
	"github.com/gadgen/gadgen/tensorops.ReLU":                    tensorops.ReLU,
	"github.com/gadgen/gadgen/tensorops.ReLUJVP":                 tensorops.ReLUJVP,
	"github.com/gadgen/gadgen/tensorops.ReLUTo":                  tensorops.ReLUTo,
	"github.com/gadgen/gadgen/tensorops.RegisterDevice":          tensorops.RegisterDevice,
	"github.com/gadgen/gadgen/tensorops.Repeats":                 tensorops.Repeats,
	"github.com/gadgen/gadgen/tensorops.RepeatsShape":            tensorops.RepeatsShape,
	"github.com/gadgen/gadgen/tensorops.Reshape":                 tensorops.Reshape,
	"github.com/gadgen/gadgen/tensorops.ReshapeLike":             tensorops.ReshapeLike,
	"github.com/gadgen/gadgen/tensorops.Scalar":                  tensorops.Scalar,
	"github.com/gadgen/gadgen/tensorops.ScalarDiv":               tensorops.ScalarDiv,
	"github.com/gadgen/gadgen/tensorops.ScalarDivTo":             tensorops.ScalarDivTo,
	"github.com/gadgen/gadgen/tensorops.Scale":                   tensorops.Scale,
	"github.com/gadgen/gadgen/tensorops.ScaleCols":               tensorops.ScaleCols,
	"github.com/gadgen/gadgen/tensorops.ScaleRows":               tensorops.ScaleRows,
	"github.com/gadgen/gadgen/tensorops.ScaleRowsGradV":          tensorops.ScaleRowsGradV,
	"github.com/gadgen/gadgen/tensorops.ScaleTo":                 tensorops.ScaleTo,
	"github.com/gadgen/gadgen/tensorops.SetBLAS":                 tensorops.SetBLAS,
	"github.com/gadgen/gadgen/tensorops.SetThreads":              tensorops.SetThreads,
	"github.com/gadgen/gadgen/tensorops.SiLU":                    tensorops.SiLU,
	"github.com/gadgen/gadgen/tensorops.SiLUJVP":                 tensorops.SiLUJVP,
	"github.com/gadgen/gadgen/tensorops.SiLUTo":                  tensorops.SiLUTo,
	"github.com/gadgen/gadgen/tensorops.Sigmoid":                 tensorops.Sigmoid,
	"github.com/gadgen/gadgen/tensorops.SigmoidJVP":              tensorops.SigmoidJVP,
	"github.com/gadgen/gadgen/tensorops.SigmoidTo":               tensorops.SigmoidTo,
	"github.com/gadgen/gadgen/tensorops.Sign":                    tensorops.Sign,
	"github.com/gadgen/gadgen/tensorops.SignTo":                  tensorops.SignTo,
	"github.com/gadgen/gadgen/tensorops.Sin":                     tensorops.Sin,
	"github.com/gadgen/gadgen/tensorops.SinTo":                   tensorops.SinTo,
	"github.com/gadgen/gadgen/tensorops.Size":                    tensorops.Size,
	"github.com/gadgen/gadgen/tensorops.Slice":                   tensorops.Slice,
	"github.com/gadgen/gadgen/tensorops.SliceBroadcast":          tensorops.SliceBroadcast,
	"github.com/gadgen/gadgen/tensorops.SliceBroadcastGrad":      tensorops.SliceBroadcastGrad,
	"github.com/gadgen/gadgen/tensorops.SliceFor":                tensorops.SliceFor,
	"github.com/gadgen/gadgen/tensorops.SliceGrad":               tensorops.SliceGrad,
	"github.com/gadgen/gadgen/tensorops.SliceLike":               tensorops.SliceLike,
	"github.com/gadgen/gadgen/tensorops.Softmax":                 tensorops.Softmax,
	"github.com/gadgen/gadgen/tensorops.SoftmaxCrossEntropy":     tensorops.SoftmaxCrossEntropy,
	"github.com/gadgen/gadgen/tensorops.SoftmaxCrossEntropyGrad": tensorops.SoftmaxCrossEntropyGrad,
	"github.com/gadgen/gadgen/tensorops.SoftmaxJVP":              tensorops.SoftmaxJVP,
	"github.com/gadgen/gadgen/tensorops.Softplus":                tensorops.Softplus,
	"github.com/gadgen/gadgen/tensorops.SoftplusTo":              tensorops.SoftplusTo,
	"github.com/gadgen/gadgen/tensorops.Sqrt":                    tensorops.Sqrt,
	"github.com/gadgen/gadgen/tensorops.SqrtTo":                  tensorops.SqrtTo,
	"github.com/gadgen/gadgen/tensorops.Square":                  tensorops.Square,
	"github.com/gadgen/gadgen/tensorops.SquareTo":                tensorops.SquareTo,
	"github.com/gadgen/gadgen/tensorops.Squeeze":                 tensorops.Squeeze,
	"github.com/gadgen/gadgen/tensorops.Std":                     tensorops.Std,
	"github.com/gadgen/gadgen/tensorops.StdAll":                  tensorops.StdAll,
	"github.com/gadgen/gadgen/tensorops.Step":                    tensorops.Step,
	"github.com/gadgen/gadgen/tensorops.StepTo":                  tensorops.StepTo,
	"github.com/gadgen/gadgen/tensorops.Sub":                     tensorops.Sub,
	"github.com/gadgen/gadgen/tensorops.SubTo":                   tensorops.SubTo,
	"github.com/gadgen/gadgen/tensorops.Sum":                     tensorops.Sum,
	"github.com/gadgen/gadgen/tensorops.SumAll":                  tensorops.SumAll,
	"github.com/gadgen/gadgen/tensorops.SumLike":                 tensorops.SumLike,
	"github.com/gadgen/gadgen/tensorops.SumLikeFull":             tensorops.SumLikeFull,
	"github.com/gadgen/gadgen/tensorops.Symmetrize":              tensorops.Symmetrize,
	"github.com/gadgen/gadgen/tensorops.Sync":                    tensorops.Sync,
	"github.com/gadgen/gadgen/tensorops.Tanh":                    tensorops.Tanh,
	"github.com/gadgen/gadgen/tensorops.TanhJVP":                 tensorops.TanhJVP,
	"github.com/gadgen/gadgen/tensorops.TanhTo":                  tensorops.TanhTo,
	"github.com/gadgen/gadgen/tensorops.Threads":                 tensorops.Threads,
	"github.com/gadgen/gadgen/tensorops.Transpose":               tensorops.Transpose,
	"github.com/gadgen/gadgen/tensorops.TransposeBack":           tensorops.TransposeBack,
	"github.com/gadgen/gadgen/tensorops.Unsqueeze":               tensorops.Unsqueeze,
	"github.com/gadgen/gadgen/tensorops.Var":                     tensorops.Var,
	"github.com/gadgen/gadgen/tensorops.VarAll":                  tensorops.VarAll,
	"github.com/gadgen/gadgen/tensorops.Zeros":                   tensorops.Zeros,
	"github.com/gadgen/gadgen/tensorops.ZerosLike":               tensorops.ZerosLike,
	"github.com/gadgen/gadgen/tensorops.ZerosOf":                 tensorops.ZerosOf,
	"github.com/gadgen/gadgen/tensorops.Lanes":                   tensorops.Lanes,
	"github.com/gadgen/gadgen/tensorops.UnlanesOf":               tensorops.UnlanesOf,
	"github.com/gadgen/gadgen/tensorops.UnlanesScalars":          tensorops.UnlanesScalars,
	"github.com/gadgen/gadgen/tensorops.LanesInto":               tensorops.LanesInto,
	"github.com/gadgen/gadgen/tensorops.ParamsBases":             tensorops.ParamsBases,
	"github.com/gadgen/gadgen/tensorops.ParamsFlattenLanes":      tensorops.ParamsFlattenLanes,
	"github.com/gadgen/gadgen/tensorops.SumAllLanes":             tensorops.SumAllLanes,
	"github.com/gadgen/gadgen/tensorops.MeanAllLanes":            tensorops.MeanAllLanes,
	"github.com/gadgen/gadgen/tensorops.DotLanes":                tensorops.DotLanes,
	"github.com/gadgen/gadgen/tensorops.LaneSum":                 tensorops.LaneSum,
	"github.com/gadgen/gadgen/tensorops.Bases":                   tensorops.Bases,
	"github.com/gadgen/gadgen/tensorops.UnlanesLike":             tensorops.UnlanesLike,
	"github.com/gadgen/gadgen/tensorops.IsLanes":                 tensorops.IsLanes,
	"github.com/gadgen/gadgen/tensorops.SumLanes":                tensorops.SumLanes,
	"github.com/gadgen/gadgen/tensorops.Release":                 tensorops.Release,
}

// tensorNatives returns the natives of tensorFuncs.
func tensorNatives() map[string]interp.Native {
	m := make(map[string]interp.Native, len(tensorFuncs))
	for name, f := range tensorFuncs {
		m[name] = interp.GoFunc(f)
	}
	return m
}

// TestTensorNativesComplete: tensorFuncs lists every exported function
// and method of package tensorops, and nothing else.
func TestTensorNativesComplete(t *testing.T) {
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import(templates.TensorPkg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, name := range pkg.Scope().Names() {
		switch o := pkg.Scope().Lookup(name).(type) {
		case *types.Func:
			if o.Exported() {
				want[o.FullName()] = true
			}
		case *types.TypeName:
			if !o.Exported() {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(o.Type()))
			for m := range ms.Methods() {
				if f := m.Obj().(*types.Func); f.Exported() && f.Pkg() == pkg {
					want[f.FullName()] = true
				}
			}
		}
	}
	for name := range want {
		if tensorFuncs[name] == nil {
			t.Errorf("tensorFuncs lacks %s", name)
		}
	}
	for name := range tensorFuncs {
		if !want[name] {
			t.Errorf("tensorFuncs lists %s, which package tensorops does not export", name)
		}
	}
}
