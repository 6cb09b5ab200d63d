package templates

// stackedOps are the functions of the tensor runtime that compute
// direction by direction on tensors of stacked directions (a tensor
// [L, …] whose first axis tensorops.Lanes marks): given such operands,
// and others shared by every direction, they return what L separate
// calls would, stacked and marked. Derivatives generated with stacked
// directions call only these on directions (ssaad.CheckStacked); the
// runtime's test of lanes checks each against L separate calls.
var stackedOps = map[string]bool{
	// Elementwise, broadcasting against the directions' shape.
	"Add": true, "Sub": true, "Mul": true, "Div": true, "Pow": true, "Maximum": true, "Minimum": true,
	"Neg": true, "Scale": true, "AddScalar": true, "Affine": true, "ScalarDiv": true, "PowScalar": true,
	"Exp": true, "Log": true, "Tanh": true, "Sigmoid": true, "ReLU": true, "Sqrt": true, "Abs": true,
	"Square": true, "Sin": true, "Cos": true, "Sign": true, "Step": true, "Log1p": true, "Expm1": true,
	"GELU": true, "SiLU": true, "Softplus": true, "Erf": true,
	"TanhJVP": true, "SigmoidJVP": true, "ReLUJVP": true, "GELUJVP": true, "SiLUJVP": true,
	"Fuse": true, "FuseInto": true,
	// Broadcasts and their adjoints, to the shape of like's directions;
	// the shapes, reductions and normalizations along an axis of each
	// direction.
	"ExpandLike": true, "SumLike": true, "OrZerosLike": true,
	"Sum": true, "Mean": true, "Reshape": true, "ReshapeLike": true, "Unsqueeze": true, "Squeeze": true,
	"Transpose": true, "TransposeBack": true, "Slice": true, "SoftmaxJVP": true, "LogSoftmaxJVP": true,
	"ExpandAxis": true, "MeanGrad": true, "ConcatJVP": true, "ConcatJVPJVP": true, "ConcatGrad": true,
	"Pad": true, "PadGrad": true, "SliceGrad": true, "Gather": true, "GatherGrad": true,
	// Products, one batched GEMM for all directions.
	"MatMul": true, "MatMulT": true, "MatMulEach": true,
	"MatMulGradA": true, "MatMulGradB": true, "MatMulGradAEach": true,
	// Accumulations (a tensor of directions from the first one on).
	"Accumulate": true, "AccumulateMatMulGradA": true, "AccumulateMatMulGradB": true, "AccumulateSumLike": true,
	// In and out of the stacked layout; the scalars of directions.
	"Lanes": true, "UnlanesLike": true, "UnlanesOf": true, "UnlanesScalars": true, "SumLanes": true,
	"SumAllLanes": true, "MeanAllLanes": true, "DotLanes": true, "LaneSum": true,
}

// StackedOp reports whether the tensor runtime's function name computes
// direction by direction on stacked directions (see stackedOps).
func StackedOp(name string) bool { return stackedOps[name] }
