package second

import (
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/templates"
)

// TestModelOf checks which types are structs of tensors and the order of
// their tensors: fields in order, a []*Tensor field as one leaf, nested
// structs by value and by pointer depth first; and the refusals.
func TestModelOf(t *testing.T) {
	tpkg := types.NewPackage(templates.TensorPkg, "tensorops")
	tensor := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, tpkg, "Tensor", nil), types.NewStruct(nil, nil), nil))
	pkg := types.NewPackage("p", "p")
	field := func(name string, typ types.Type) *types.Var {
		return types.NewField(token.NoPos, pkg, name, typ, false)
	}
	named := func(name string, fields ...*types.Var) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), types.NewStruct(fields, nil), nil)
	}
	affine := named("Affine", field("Scale", tensor), field("Shift", tensor))
	net := named("Net", field("Layers", types.NewSlice(tensor)), field("N", types.Typ[types.Int]),
		field("Norm", affine), field("Head", types.NewPointer(affine)), field("Out", tensor))
	mixed := named("Mixed", field("W", tensor), field("Rate", types.Typ[types.Float64]))
	floats := named("Floats", field("X", types.NewSlice(types.Typ[types.Float64])))
	self := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "List", nil), nil, nil)
	self.SetUnderlying(types.NewStruct([]*types.Var{field("W", tensor), field("Next", types.NewPointer(self))}, nil))
	empty := named("Empty", field("N", types.Typ[types.Int]))
	layer := named("Layer", field("W", tensor), field("Bs", types.NewSlice(tensor)), field("Head", types.NewPointer(affine)))
	mlp := named("MLP", field("In", tensor), field("Ls", types.NewSlice(layer)), field("Ps", types.NewSlice(types.NewPointer(affine))))
	badLayer := named("BadLayer", field("W", tensor), field("Rate", types.Typ[types.Float64]))
	bad := named("Bad", field("Ls", types.NewSlice(badLayer)))
	grid := named("Grid", field("Ws", types.NewSlice(types.NewSlice(tensor))))

	for _, c := range []struct {
		typ    types.Type
		leaves string // describe's text
		ptr    bool
		err    string
	}{
		{typ: net, leaves: "the elements of Layers, Norm.Scale, Norm.Shift, Head.Scale, Head.Shift, Out"},
		{typ: types.NewPointer(net), leaves: "the elements of Layers, Norm.Scale, Norm.Shift, Head.Scale, Head.Shift, Out", ptr: true},
		{typ: mlp, leaves: "In, each element e of Ls in turn (e.W, the elements of e.Bs, e.Head.Scale, e.Head.Shift), " +
			"each element e of Ps in turn (e.Scale, e.Shift)"},
		{typ: bad, err: "field Ls[i].Rate has type float64"},
		{typ: grid, err: "field Ws has type [][]*"},
		{typ: mixed, err: "field Rate has type float64"},
		{typ: floats, err: "field X has type []float64"},
		{typ: types.NewPointer(self), err: "p.List refers to itself"},
		{typ: empty, err: "p.Empty has no tensor fields"},
		{typ: types.Typ[types.Float64]},
		{typ: types.NewSlice(types.Typ[types.Float64])},
	} {
		m, err := modelOf(c.typ)
		name := types.TypeString(c.typ, nil)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got error %v, want one containing %q", name, err, c.err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		case c.leaves == "":
			if m != nil {
				t.Errorf("%s: got a struct of tensors, want none", name)
			}
			continue
		}
		if got := m.describe(); got != c.leaves || m.ptr() != c.ptr || !types.Identical(m.tensorT, tensor) {
			t.Errorf("%s: tensors %q, pointer %v, tensor %v; want %q, %v", name, got, m.ptr(), m.tensorT, c.leaves, c.ptr)
		}
	}
}
