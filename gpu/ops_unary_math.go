package gpu

// unaryMathOps are the kernels of kern/unary_math.h (those calling
// devmath.h), by tensorops op name; Backend.Unary launches them.
var unaryMathOps = map[string][2]kernel{
	"Exp":       elemUnary("gad_exp"),
	"Log":       elemUnary("gad_log"),
	"Tanh":      elemUnary("gad_tanh"),
	"Sigmoid":   elemUnary("gad_sigmoid"),
	"Sqrt":      elemUnary("gad_sqrt"),
	"Sin":       elemUnary("gad_sin"),
	"Cos":       elemUnary("gad_cos"),
	"Log1p":     elemUnary("gad_log1p"),
	"Expm1":     elemUnary("gad_expm1"),
	"Erf":       elemUnary("gad_erf"),
	"GELU":      elemUnary("gad_gelu"),
	"SiLU":      elemUnary("gad_silu"),
	"Softplus":  elemUnary("gad_softplus"),
	"PowScalar": elemUnary("gad_pow_scalar"),
}
