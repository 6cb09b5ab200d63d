// This file defines the rules of the tensor runtime's functions and
// methods that read shapes, or make tensors whose values do not depend on
// their arguments' values: piecewise constant, so a varied argument simply
// stops being varied (x.Dim(0), tensorops.ZerosLike(x)).

package templates

// constantOf returns the PiecewiseConstant rule of the tensorops function
// or Tensor method (name "Tensor.Dim") with the given parameters (the
// receiver first) and results.
func constantOf(name string, params, results []string) *Rule {
	return &Rule{Pkg: TensorPkg, Name: name, Params: params, Results: results, Kind: PiecewiseConstant,
		Math: "does not depend on the values of its arguments, only on their shapes"}
}

var tensorShapeRules = []*Rule{
	constantOf("Dim", []string{"a", "axis"}, []string{"r"}),
	constantOf("Size", []string{"a"}, []string{"r"}),
	constantOf("Repeats", []string{"a", "like"}, []string{"r"}),
	constantOf("RepeatsShape", []string{"a", "shape"}, []string{"r"}),
	constantOf("ZerosLike", []string{"t"}, []string{"r"}),
	constantOf("Zeros", []string{"shape"}, []string{"r"}),
	constantOf("Ones", []string{"shape"}, []string{"r"}),
	constantOf("ZerosOf", []string{"dt", "shape"}, []string{"r"}),
	constantOf("OnesOf", []string{"dt", "shape"}, []string{"r"}),
	constantOf("ArgMax", []string{"a", "axis"}, []string{"r"}),
	constantOf("Tensor.Dim", []string{"t", "i"}, []string{"r"}),
	constantOf("Tensor.Dims", []string{"t"}, []string{"r"}),
	constantOf("Tensor.Size", []string{"t"}, []string{"r"}),
	constantOf("Tensor.Shape", []string{"t"}, []string{"r"}),
	constantOf("Tensor.Strides", []string{"t"}, []string{"r"}),
	constantOf("Tensor.DType", []string{"t"}, []string{"r"}),
	constantOf("Tensor.Device", []string{"t"}, []string{"r"}),
	constantOf("Tensor.IsContiguous", []string{"t"}, []string{"r"}),
	constantOf("Tensor.SameShape", []string{"t", "b"}, []string{"r"}),
}
