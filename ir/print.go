package ir

// This file defines the stable text form of a Func, used by golden tests of
// passes and by gadgen's -dump option.

import (
	"fmt"
	"go/types"
	"strings"
)

// String returns the text form of f.
func (f *Func) String() string {
	var sb strings.Builder
	f.Fprint(&sb)
	return sb.String()
}

// Fprint writes the text form of f to sb.
func (f *Func) Fprint(sb *strings.Builder) {
	qual := types.RelativeTo(f.Pkg)
	fmt.Fprintf(sb, "func %s(", f.Name)
	for i, p := range f.Params {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(sb, "%s %s", p.Ref(), types.TypeString(p.Type, qual))
	}
	sb.WriteString(")")
	if len(f.ResultTypes) > 0 {
		sb.WriteString(" (")
		for i, t := range f.ResultTypes {
			if i > 0 {
				sb.WriteString(", ")
			}
			if f.ResultNames[i] != "" {
				sb.WriteString(f.ResultNames[i] + " ")
			}
			sb.WriteString(types.TypeString(t, qual))
		}
		sb.WriteString(")")
	}
	if f.Recv != nil {
		fmt.Fprintf(sb, " method of %s", types.TypeString(f.Recv, qual))
	}
	sb.WriteString("\n")
	for _, b := range f.Blocks {
		fmt.Fprintf(sb, "b%d:", b.Index)
		if len(b.Preds) > 0 {
			sb.WriteString(" <-")
			for _, p := range b.Preds {
				fmt.Fprintf(sb, " b%d", p.Index)
			}
		}
		if b.Comment != "" {
			fmt.Fprintf(sb, " ; %s", b.Comment)
		}
		sb.WriteString("\n")
		for _, v := range b.Instrs {
			sb.WriteString("  ")
			sb.WriteString(v.LongString(qual))
			sb.WriteString("\n")
		}
	}
}

// Ref returns the short name of v used in the text form: v12, or v12:name
// when v has a source name, or the constant itself.
func (v *Value) Ref() string {
	if v == nil {
		return "_"
	}
	if v.Op == OpConst {
		if v.Const == nil {
			return "zero"
		}
		return v.Const.ExactString()
	}
	if v.Name != "" {
		return fmt.Sprintf("v%d:%s", v.ID, v.Name)
	}
	return fmt.Sprintf("v%d", v.ID)
}

// LongString returns v as one line of the text form.
func (v *Value) LongString(qual types.Qualifier) string {
	var sb strings.Builder
	if v.Type != nil && v.Op != OpStore {
		fmt.Fprintf(&sb, "%s = ", v.Ref())
	}
	sb.WriteString(v.Op.String())
	switch v.Op {
	case OpBinary, OpUnary:
		fmt.Fprintf(&sb, " %s", v.Tok)
	case OpCall:
		fmt.Fprintf(&sb, " %s", v.Callee)
		if v.Callee.Spread {
			sb.WriteString(" spread")
		}
	case OpExtract, OpFieldAddr, OpField, OpParam:
		fmt.Fprintf(&sb, " #%d", v.Index)
	case OpGlobal:
		fmt.Fprintf(&sb, " %s", v.Global.Name())
	case OpAlloc:
		if v.Heap {
			sb.WriteString(" heap")
		}
		if v.Adjoint {
			sb.WriteString(" adjoint")
		}
	}
	for _, a := range v.Args {
		sb.WriteString(" ")
		sb.WriteString(a.Ref())
	}
	if v.Type != nil {
		fmt.Fprintf(&sb, " : %s", types.TypeString(v.Type, qual))
	}
	if v.Op.Info().Succs > 0 {
		sb.WriteString(" ->")
		if v.Block != nil {
			for _, s := range v.Block.Succs {
				fmt.Fprintf(&sb, " b%d", s.Index)
			}
		}
	}
	return sb.String()
}
