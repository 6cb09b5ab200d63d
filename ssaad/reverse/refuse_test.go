package reverse_test

// This file tests the diagnostics of reverse mode: each function of
// testdata/rev/refuse must be refused with the diagnostics that its
// comments `want "text"` ask for, on their lines, and no other.

import (
	"go/ast"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
	"github.com/gadgen/gadgen/templates"
)

// refuseCase is a function of testdata/rev/refuse to transform.
type refuseCase struct {
	fn   string
	mode reverse.Mode
	wrt  []int // nil: ssaad.DefaultActivity
	opts ssaad.Options
	// env: "plain" for an environment that is only an ssaad.Env,
	// "noalias" for one that is not an ssaad.AliasEnv; "" for revEnv.
	env string
	// rule is the rule of lin, if any.
	rule *templates.Rule
}

var refuseCases = []refuseCase{
	{fn: "Pair"},
	{fn: "StoreGlobal"},
	{fn: "Leak", wrt: []int{1}},
	{fn: "Next"},
	{fn: "ClearRows"},
	{fn: "List"},
	{fn: "CallGlobal"},
	{fn: "Sum", opts: ssaad.Options{Gonum: true}},
	{fn: "Fit", opts: ssaad.Options{Gonum: true}, wrt: []int{0}},
	{fn: "Self", env: "noalias"},
	{fn: "Iface", wrt: []int{0, 1}},
	{fn: "Layers", mode: reverse.Mode{Seeded: true}},
	{fn: "CallLayers"},
	{fn: "BadRule", rule: &templates.Rule{Name: "lin", Params: []string{"a", "b"}, Results: []string{"r"},
		Kind: templates.Smooth, Tangent: []string{"2 * da", "3 * db"}, Adjoint: []string{"2 * (rBar", "3 * rBar"}}},
	{fn: "NoAdjoint", rule: &templates.Rule{Name: "lin", Params: []string{"a", "b"}, Results: []string{"r"},
		Kind: templates.Smooth, Tangent: []string{"2 * da", ""}, Adjoint: []string{"2 * rBar", ""}}},
	{fn: "JVPOnly", rule: &templates.Rule{Name: "lin", Params: []string{"a", "b"}, Results: []string{"r"},
		Kind: templates.Smooth, Tangent: []string{"2 * da", "3 * db"}, Reason: "the rule of lin gives a JVP only"}},
}

// misplaced lists the cases whose diagnostics are not where they should
// be, skipped until that is fixed.
var misplaced = map[string]string{}

// plainEnv hides the optional interfaces of the Env it holds.
type plainEnv struct{ ssaad.Env }

// noAliasEnv hides ssaad.AliasEnv.
type noAliasEnv struct {
	ssaad.Env
	ssaad.OriginsEnv
}

// wantRE matches a comment `want "text"`.
var wantRE = regexp.MustCompile(`want "((?:[^"\\]|\\.)*)"`)

// want is an expected diagnostic: its file and line, and a part of its
// message.
type want struct {
	file string
	line int
	text string
}

func TestRefuse(t *testing.T) {
	prog := program(t)
	wants := map[string][]want{} // by function
	for _, lp := range prog.Roots {
		if lp.Name != "refuse" {
			continue
		}
		for _, file := range lp.Syntax {
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				for _, cg := range file.Comments {
					if cg.Pos() < fd.Pos() || cg.End() > fd.End() {
						continue
					}
					for _, c := range cg.List {
						if m := wantRE.FindStringSubmatch(c.Text); m != nil {
							p := prog.Position(c.Pos())
							text := strings.ReplaceAll(m[1], `\`, "")
							wants[fd.Name.Name] = append(wants[fd.Name.Name], want{p.Filename, p.Line, text})
						}
					}
				}
			}
		}
	}
	for fn := range wants {
		if !slices.ContainsFunc(refuseCases, func(tc refuseCase) bool { return tc.fn == fn }) {
			t.Errorf("%s has diagnostics to want but no case in refuseCases", fn)
		}
	}
	for _, tc := range refuseCases {
		t.Run(tc.fn, func(t *testing.T) {
			fn := lookup(t, prog, "refuse", tc.fn)
			active := activity(fn, tc.wrt)
			// The explicit list of misplaced diagnostics, each with its bug
			// (misplaced; empty today).
			if bug, ok := misplaced[tc.fn]; ok {
				t.Skip(bug)
			}
			re := newRevEnv(prog, false)
			var env ssaad.Env = re
			switch tc.env {
			case "plain":
				env = plainEnv{re}
			case "noalias":
				env = noAliasEnv{re, re}
			}
			primal := lower(t, prog, fn)
			if tc.rule != nil {
				attachRules(primal, map[string]*templates.Rule{"lin": tc.rule})
			}
			simplify.Run(primal, simplify.Primal, simplify.Config{Check: true})
			req := &ssaad.Request{Mode: tc.mode.Name(), Target: fn, Name: fn.Name() + tc.mode.Suffix(), Active: active, Options: tc.opts}
			d, errs := tc.mode.Transform(primal, req, env)
			if len(errs) == 0 {
				t.Fatalf("Transform refused nothing, want %v\n%s", wants[tc.fn], d)
			}
			matched := make([]bool, len(wants[tc.fn]))
			for _, e := range errs {
				found := false
				for i, w := range wants[tc.fn] {
					if e.Pos.Filename == w.file && e.Pos.Line == w.line && strings.Contains(e.String(), w.text) {
						matched[i], found = true, true
					}
				}
				if !found {
					t.Errorf("unexpected diagnostic %s", e)
				}
				if e.Func != ir.FuncName(fn) {
					t.Errorf("diagnostic %s names function %q, want %q", e, e.Func, ir.FuncName(fn))
				}
			}
			for i, w := range wants[tc.fn] {
				if !matched[i] {
					t.Errorf("no diagnostic at line %d with %q; got %v", w.line, w.text, errs)
				}
			}
		})
	}
}

// TestRefuseActivity: an activity of the wrong length is refused, at the
// function.
func TestRefuseActivity(t *testing.T) {
	prog := program(t)
	fn := lookup(t, prog, "cases", "Poly")
	primal := lower(t, prog, fn)
	req := &ssaad.Request{Mode: "grad", Target: fn, Name: "PolyGrad", Active: []bool{true}}
	_, errs := reverse.Mode{}.Transform(primal, req, newRevEnv(prog, false))
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "activity of 1 parameters for 2") {
		t.Fatalf("got %v, want one diagnostic: activity of 1 parameters for 2", errs)
	}
	if p := prog.Position(fn.Pos()); errs[0].Pos.Line != p.Line {
		t.Errorf("diagnostic at line %d, want %d (the function's)", errs[0].Pos.Line, p.Line)
	}
}

// TestModeNames checks what the three variants of reverse mode call
// themselves and accept.
func TestModeNames(t *testing.T) {
	for _, tc := range []struct {
		mode                 reverse.Mode
		name, suffix, option string
		internal             bool
	}{
		{reverse.Mode{}, "grad", "Grad", "checkpoint gonum value", false},
		{reverse.Mode{Seeded: true}, "vjp", "VJP", "checkpoint value", false},
		{reverse.Mode{Callee: true}, reverse.CalleeMode, "Reverse", "", true},
	} {
		if got := tc.mode.Name(); got != tc.name {
			t.Errorf("%+v: Name() = %q, want %q", tc.mode, got, tc.name)
		}
		if got := tc.mode.Suffix(); got != tc.suffix {
			t.Errorf("%+v: Suffix() = %q, want %q", tc.mode, got, tc.suffix)
		}
		if got := strings.Join(tc.mode.Options(), " "); got != tc.option {
			t.Errorf("%+v: Options() = %q, want %q", tc.mode, got, tc.option)
		}
		if got := tc.mode.Internal(); got != tc.internal {
			t.Errorf("%+v: Internal() = %v, want %v", tc.mode, got, tc.internal)
		}
	}
}

// TestDump: Transform hands the activity analysis to Request.Dump.
func TestDump(t *testing.T) {
	prog := program(t)
	fn := lookup(t, prog, "cases", "Poly")
	stages := map[string]string{}
	req := &ssaad.Request{Mode: "grad", Target: fn, Name: "PolyGrad", Active: []bool{true, true},
		Dump: func(stage, text string) { stages[stage] = text }}
	if _, errs := (reverse.Mode{}).Transform(lower(t, prog, fn), req, newRevEnv(prog, false)); len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := stages["activity"]; !strings.Contains(got, "varied params: v1:x v2:y") {
		t.Errorf("dumped activity %q, want Poly's, with varied params x and y", got)
	}
}

// TestDumpPlan: Transform hands its plan to Request.Dump: the loops it
// reverses by their index, the memory it restores and the stores whose
// values it reads back (an in-place Cholesky), the calls it reverses
// jointly and the memory saved before them (a helper scaling a buffer in
// place in a loop).
func TestDumpPlan(t *testing.T) {
	prog := program(t)
	for _, tc := range []struct {
		fn     string
		active []bool
		want   []string
	}{
		{"Cholesky", []bool{true, false}, []string{
			"plan of Cholesky:\n",
			"reversed by its index, from its last (computed from v2:n) back to 0",
			"restored memory: v1:a\n",
			"reads v", "back before putting it back",
		}},
		{"InPlaceLoop", []bool{true, true}, []string{
			"plan of InPlaceLoop:\n",
			"reverses v", "scaleInPlace jointly, saving the memory of v",
		}},
	} {
		fn := lookup(t, prog, "cases", tc.fn)
		var plan string
		req := &ssaad.Request{Mode: "grad", Target: fn, Name: tc.fn + "Grad", Active: tc.active,
			Dump: func(stage, text string) {
				if stage == "plan" {
					plan = text
				}
			}}
		if _, errs := (reverse.Mode{}).Transform(lower(t, prog, fn), req, newRevEnv(prog, false)); len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(plan, w) {
				t.Errorf("%s: the plan does not say %q:\n%s", tc.fn, w, plan)
			}
		}
	}
}
