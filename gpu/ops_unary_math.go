package gpu

// unaryMathOps are the kernels of kern/unary_math.h (those calling
// devmath.h), by tensorops op name; Backend.Unary launches them.
var unaryMathOps = map[string][2]kernel{
	"Exp": elemUnary("gad_exp"),
}
