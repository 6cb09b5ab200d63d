package reverse_test

// This file defines the execution tests of the reverse-mode transformer:
// each function of testdata/rev/cases is lowered, optimized (or not),
// transformed, simplified and run in package interp, at seeded random
// points, against central finite differences of the primal run in the
// interpreter (gadtest.CheckVJP): a derivative F̄ maps the adjoints w of
// what F produces — its results, and the final contents of the memory of
// its varied slice and pointer parameters — to Jᵀ·w. For //gad:grad the
// adjoint of the result is 1; the shadows of the parameters hold, on
// entry, the adjoints of the values F leaves in their memory. The
// derivative must also leave the memory of every parameter as the primal
// does (but for the callee variant, Mode{Callee: true}).

import (
	"fmt"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
	"github.com/gadgen/gadgen/templates"
)

// execCase is a function of testdata/rev/cases to differentiate and run.
type execCase struct {
	fn   string // the function ("T.M" for a method)
	mode reverse.Mode
	opts ssaad.Options
	// wrt lists the varied parameters (receiver first); nil means
	// ssaad.DefaultActivity.
	wrt []int
	// args are Go values of the arguments; the floats of the varied ones
	// are replaced by the point x (in irtest.Floats's order).
	args []any
	// lo, hi bound the coordinates of the points.
	lo, hi float64
	// rel is the relative tolerance of the comparison with finite
	// differences; zero means gadtest's default.
	rel float64
	// step is the finite-difference step (gadtest.Settings.Step); zero
	// means gadtest's default.
	step float64
	// rules gives rules (templates.Rule) to the calls of the functions it
	// names, as //gad:rule does.
	rules func(t *testing.T, prog *frontend.Program) map[string]*templates.Rule
	// label tells the case from others of the same function in its name.
	label string
	// method: generate a method (ssaad.Request.Method).
	method bool
	// split: split every call that can be (ssaad.Request.Split).
	split bool
	// resultOnly: the outputs are the results alone, the shadows zero on
	// entry (for a function that replaces the slices it writes).
	resultOnly bool
	// inline: inline the calls simplify.ChooseReversal picks, as the
	// driver first tries (set by TestExecInlined).
	inline bool
	// tapes, when not nil, lists the tapes (by the name of their
	// variable) the derivative pushes to: its plan. "tape" holds floats,
	// "tapeint" ints, "path" the predecessors of blocks with several: a
	// counted loop records no index, a fused loop nothing.
	tapes []string
	// grows, when not 0, is the number of times the optimized derivative
	// reserves tape space (calls slices.Grow).
	grows int
	// pushes, when not 0, is the number of values the optimized
	// derivative's code pushes to its tapes (the arguments of its appends
	// to them, counted once each where they stand).
	pushes int
	// warning, when not "", is the warning Transform gives with the
	// derivative; otherwise it must give none.
	warning string
	// jointRefusal, when not "", is the diagnostic with which Transform
	// refuses the function with its calls kept (the driver then inlines
	// them: TestExecInlined checks the derivative).
	jointRefusal string
}

// Go twins of the types of testdata/rev/cases, for interp.FromGo.
type (
	point struct{ X, Y float64 }
	layer struct {
		W []float64
		B *float64
		N int
	}
	spring  struct{ K float64 }
	state   struct{ Q, V []float64 }
	counted struct {
		X float64
		N int
	}
	body struct {
		Pos [2]float64
		Vel []float64
		M   float64
	}
)

// execCases are the functions of testdata/rev/cases, by feature.
var execCases = []execCase{
	// Straight-line code, branches, values of aggregate types.
	{fn: "Poly", args: []any{0.0, 0.0}, lo: 0.5, hi: 2, tapes: []string{}},
	{fn: "Branch", args: []any{0.0, 0.0}, lo: -1, hi: 1},
	{fn: "MinMax", args: []any{0.0, 0.0, 0.0}, lo: -1, hi: 1},
	{fn: "Tuple", args: []any{0.0}, lo: 0.3, hi: 2},
	{fn: "Rotate", args: []any{point{}, [3]float64{}, 0.0}, lo: -1, hi: 1},
	{fn: "Float32s", args: []any{float32(0), 0.0}, lo: 0.5, hi: 2, rel: 1e-3, step: 1e-3}, // float32
	{fn: "Named", args: []any{0.0, 0.0}, lo: -1, hi: 1},
	{fn: "Point.Norm", args: []any{point{}, 0.0}, lo: 0.5, hi: 2},
	{fn: "Doubles", args: []any{0.0, 0.0}, lo: -1, hi: 1},
	{fn: "Checked", args: []any{make([]float64, 2)}, lo: -1, hi: 1},
	{fn: "Abs", args: []any{0.0, 0.0}, lo: -1, hi: 1},
	{fn: "Pair", mode: reverse.Mode{Seeded: true}, args: []any{0.0, 0.0}, lo: 0.5, hi: 2},
	{fn: "Frac", mode: reverse.Mode{Seeded: true}, args: []any{0.0}, lo: 0.1, hi: 0.9},
	{fn: "Mid", mode: reverse.Mode{Seeded: true}, args: []any{point{}, point{}}, lo: -1, hi: 1},
	{fn: "Pair", mode: reverse.Mode{Seeded: true}, opts: ssaad.Options{NoValue: true}, args: []any{0.0, 0.0}, lo: 0.5, hi: 2},
	{fn: "Point.Norm", method: true, wrt: []int{0, 1}, args: []any{point{}, 0.0}, lo: 0.5, hi: 2},
	{fn: "Poly", wrt: []int{1}, args: []any{0.0, 0.0}, lo: 0.5, hi: 2},
	{fn: "Poly", opts: ssaad.Options{NoValue: true}, args: []any{0.0, 0.0}, lo: 0.5, hi: 2},

	// Loops.
	{fn: "SumSquares", args: []any{make([]float64, 5)}, lo: -1, hi: 1, tapes: []string{}},
	{fn: "SumSquares", opts: ssaad.Options{Gonum: true}, args: []any{make([]float64, 4)}, lo: -1, hi: 1},
	{fn: "Dot", args: []any{make([]float64, 4), make([]float64, 4)}, lo: -1, hi: 1, tapes: []string{}},
	{fn: "Norm", args: []any{make([]float64, 4)}, lo: -1, hi: 1},
	{fn: "Weighted", args: []any{make([]float64, 4), 0.0}, lo: -1, hi: 1},
	{fn: "SumExp", args: []any{make([]float64, 4)}, lo: -1, hi: 1},
	{fn: "Newton", args: []any{0.0}, lo: 0.5, hi: 4, tapes: []string{"tape"}},
	{fn: "SkipNeg", args: []any{make([]float64, 6)}, lo: -1, hi: 2.2},
	{fn: "While", args: []any{0.0}, lo: 0.5, hi: 3},
	{fn: "Horner", args: []any{make([]float64, 5), 0.0}, lo: -1, hi: 1, tapes: []string{"tape"}},
	{fn: "MatVec", args: []any{[][]float64{make([]float64, 3), make([]float64, 3)}, make([]float64, 3)}, lo: -1, hi: 1, tapes: []string{"tape"}},
	{fn: "Triangle", args: []any{make([]float64, 4)}, lo: -1, hi: 1},
	{fn: "Strided", args: []any{make([]float64, 5), 3}, lo: -1, hi: 1, tapes: []string{"tape"}},
	{fn: "Product", args: []any{make([]float64, 4)}, lo: 0.5, hi: 2},
	{fn: "Nest3", args: []any{make([]float64, 3)}, lo: -1, hi: 1, tapes: []string{"tape"}},
	{fn: "Stages", args: []any{make([]float64, 4)}, lo: -1, hi: 1, tapes: []string{"tape"}, grows: 1},
	{fn: "Recurrences", args: []any{make([]float64, 4), 3}, lo: -1, hi: 1, tapes: []string{"tape", "tapeSlices"}, grows: 2},

	// Memory.
	{fn: "Prefix", args: []any{make([]float64, 4)}, lo: 0.5, hi: 1.5},
	{fn: "Squares", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Smooth", args: []any{make([]float64, 5)}, lo: -1, hi: 1},
	{fn: "Collect", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "PerIter", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Forward", args: []any{&layer{W: make([]float64, 3), B: new(float64), N: 3}, make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Forward", wrt: []int{0}, args: []any{&layer{W: make([]float64, 3), B: new(float64), N: 3}, make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Forward", wrt: []int{1}, args: []any{&layer{W: make([]float64, 3), B: new(float64), N: 3}, make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Update", wrt: []int{0}, args: []any{&layer{W: make([]float64, 3), B: new(float64), N: 3}, make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "ByValue", args: []any{layer{W: make([]float64, 3), B: new(float64), N: 3}, 0.0}, lo: -1, hi: 1},
	{fn: "Update", args: []any{&layer{W: make([]float64, 3), B: new(float64), N: 3}, make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Widen", args: []any{&layer{W: make([]float64, 2), B: new(float64), N: 2}}, lo: -1, hi: 1, resultOnly: true},
	{fn: "CopyClear", args: []any{make([]float64, 3), make([]float64, 2)}, lo: -1, hi: 1},
	{fn: "Matrix", args: []any{[][]float64{make([]float64, 2), make([]float64, 2), make([]float64, 2)}}, lo: -1, hi: 1},
	{fn: "Arrays", args: []any{[3]float64{}, &[2]float64{}}, lo: -1, hi: 1},
	{fn: "Indirect", args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Scale", mode: reverse.Mode{Seeded: true}, args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Ramp", mode: reverse.Mode{Seeded: true}, args: []any{0.0, 3}, lo: -1, hi: 1},

	// Calls, reversed jointly.
	{fn: "Chain", args: []any{0.0, 0.0}, lo: 0.5, hi: 2},
	{fn: "InLoop", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Recursive", args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Steps", args: []any{0.0, make([]float64, 3), 3}, lo: 0.5, hi: 1.5},
	{fn: "UseFill", args: []any{0.0}, lo: 0.5, hi: 1},
	{fn: "Fresh", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1, tapes: []string{}},
	{fn: "Same", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "TwoResults", args: []any{0.0, 0.0}, lo: 0.5, hi: 2},
	{fn: "Total", args: []any{spring{}, 0.0}, lo: -1, hi: 1},
	{fn: "Variadic", args: []any{0.0, 0.0}, lo: -1, hi: 1},
	{fn: "Accumulate", args: []any{make([]float64, 2), make([]float64, 2)}, lo: -1, hi: 1},
	{fn: "PassLayer", args: []any{make([]float64, 3), 0.0, 0.0}, lo: -1, hi: 1},
	{fn: "Run", wrt: []int{0, 1}, args: []any{&state{Q: make([]float64, 2), V: make([]float64, 2)}, 0.0, 3}, lo: 0.5, hi: 1.5},
	{fn: "Reassign", args: []any{0.0, make([]float64, 3)}, lo: 0.5, hi: 1.5},
	// Binomial checkpointing (revolve.go): fewer copies than steps, one
	// copy, index arithmetic and two calls a step, values carried from
	// step to step, and a loop it refuses.
	{fn: "Run", label: "checkpoint=2", opts: ssaad.Options{Checkpoint: 2}, wrt: []int{0, 1},
		args: []any{&state{Q: make([]float64, 2), V: make([]float64, 2)}, 0.0, 7}, lo: 0.5, hi: 1.5},
	{fn: "Steps", label: "checkpoint=1", opts: ssaad.Options{Checkpoint: 1}, args: []any{0.0, make([]float64, 3), 5}, lo: 0.5, hi: 1.5},
	{fn: "Steps", label: "checkpoint=9", opts: ssaad.Options{Checkpoint: 9}, args: []any{0.0, make([]float64, 3), 5}, lo: 0.5, hi: 1.5},
	{fn: "Driven", opts: ssaad.Options{Checkpoint: 2}, wrt: []int{0, 1, 2},
		args: []any{&state{Q: make([]float64, 2), V: make([]float64, 2)}, make([]float64, 3), 0.0, 6}, lo: 0.5, hi: 1.5},
	{fn: "Driven", args: []any{&state{Q: make([]float64, 2), V: make([]float64, 2)}, make([]float64, 3), 0.0, 6}, lo: 0.5, hi: 1.5},
	{fn: "Summed", opts: ssaad.Options{Checkpoint: 2}, args: []any{0.0, make([]float64, 3), 6}, lo: 0.5, hi: 1.5},
	{fn: "Factor", args: []any{make([]float64, 4)}, lo: 0.5, hi: 1.5},
	{fn: "Loaded", opts: ssaad.Options{Checkpoint: 2}, args: []any{0.0, make([]float64, 3), 4}, lo: 0.5, hi: 1.5,
		warning: "checkpoint=2: no loop of Loaded is checkpointed"},
	{fn: "Self", args: []any{make([]float64, 3)}, lo: -1, hi: 1},

	// More control flow and memory.
	{fn: "Rows", args: []any{make([]float64, 3), 3}, lo: -1, hi: 1},
	{fn: "Maybe", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "EarlyReturn", args: []any{make([]float64, 4)}, lo: 0, hi: 1.5},
	{fn: "Switch", args: []any{make([]float64, 7)}, lo: -1, hi: 1},
	{fn: "Grow", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Ptr", args: []any{new(float64), 0.0}, lo: -1, hi: 1},
	{fn: "Hold", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Cubes", args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Counter", args: []any{make([]float64, 6)}, lo: -1, hi: 1},
	{fn: "MatMul", args: []any{make([]float64, 4), make([]float64, 4), 2}, lo: -1, hi: 1},
	{fn: "Pos", mode: reverse.Mode{Seeded: true}, args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Layer.Loss", opts: ssaad.Options{Gonum: true}, method: true, args: []any{&layer{W: []float64{1, 2, 3}, N: 3}, make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Layer.Loss", opts: ssaad.Options{Gonum: true}, args: []any{&layer{W: []float64{1, 2, 3}, N: 3}, make([]float64, 3)}, lo: -1, hi: 1},

	{fn: "Overwrite", args: []any{[][]float64{make([]float64, 2), make([]float64, 2)}}, lo: -1, hi: 1},
	{fn: "PtrSlice", args: []any{make([]float64, 2)}, lo: -1, hi: 1},
	{fn: "Closure", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "SubSlices", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Structs", args: []any{0.0, 0.0}, lo: -1, hi: 1},
	{fn: "SliceAndFloat", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Branchy", args: []any{make([]float64, 4)}, lo: -1, hi: 1.5},
	{fn: "InPlaceLoop", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Copies", args: []any{make([]float64, 4), make([]float64, 2), 0.0}, lo: -1, hi: 1},
	{fn: "Singles", args: []any{make([]float32, 3), 0.0}, lo: 0.5, hi: 1.5, rel: 1e-3, step: 1e-3},
	{fn: "SpreadMean", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Keep", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Rebias", args: []any{&layer{W: make([]float64, 1), B: new(float64)}, 0.0}, lo: -1, hi: 1, resultOnly: true},
	{fn: "FloatCounter", args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Cross", args: []any{[3]float64{}, [3]float64{}}, lo: -1, hi: 1},
	{fn: "Bodies", args: []any{[]body{{Vel: make([]float64, 2)}, {Vel: make([]float64, 2)}}, 0.0}, lo: -1, hi: 1},
	{fn: "Pick", args: []any{make([]float64, 2), make([]float64, 2), 0.0}, lo: -1, hi: 1},
	{fn: "GaussSeidel", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "SwapVel", args: []any{make([]float64, 4), 0.0}, lo: -1, hi: 1},
	{fn: "SwapParam", args: []any{[]body{{Vel: make([]float64, 2)}, {Vel: make([]float64, 2)}}}, lo: -1, hi: 1, resultOnly: true},
	{fn: "Through", wrt: []int{1}, args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Fields", args: []any{counted{N: 3}, 0.0}, lo: -1, hi: 1},
	{fn: "Mutual", args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Walk", args: []any{point{}, 0.0}, lo: -1, hi: 1},
	{fn: "Grid", args: []any{make([]float64, 2)}, lo: -1, hi: 1},
	{fn: "Pairs", args: []any{0.0}, lo: -1, hi: 1},
	{fn: "Assign", args: []any{&layer{W: make([]float64, 2), B: new(float64)}, make([]float64, 2)}, lo: -1, hi: 1, resultOnly: true},
	{fn: "UseTwin", args: []any{make([]float64, 2), make([]float64, 2), 0.0}, lo: -1, hi: 1},
	{fn: "PointPtrs", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "SelfAxpy", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	// Overlapping parts of one slice passed to a callee that writes one:
	// joint reversal refuses (its reverse takes them apart); inlined, the
	// derivative is right.
	{fn: "Shifted", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1,
		jointRefusal: "parts of one slice or variable that may overlap"},
	{fn: "SharedFields", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Captured", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Deep", args: []any{make([]float64, 3), 3}, lo: -1, hi: 1},
	{fn: "Refit", args: []any{&layer{W: make([]float64, 2), B: new(float64)}, 0.0}, lo: -1, hi: 1, resultOnly: true},
	{fn: "Kicks", args: []any{[]body{{Vel: make([]float64, 2)}, {Vel: make([]float64, 2)}}, 0.0}, lo: -1, hi: 1},
	{fn: "Pool", args: []any{make([]float64, 4)}, lo: -1, hi: 1},
	{fn: "LUTrace", args: []any{make([]float64, 9), 3}, lo: -1, hi: 1},
	{fn: "Cholesky", args: []any{make([]float64, 9), 3}, lo: -1, hi: 1, pushes: 5},
	{fn: "Literals", args: []any{0.0, 4}, lo: -1, hi: 1, pushes: 5},

	// Split reversal (split.go).
	{fn: "SplitSet", args: []any{make([]float64, 3), make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "SplitSteps", args: []any{make([]float64, 3), make([]float64, 3), 4}, lo: -1, hi: 1},
	{fn: "SplitScalar", args: []any{make([]float64, 3), make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "SplitWrap", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1, split: true},
	{fn: "SplitTail", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "SplitPush", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "SplitSteps", args: []any{make([]float64, 3), make([]float64, 3), 4}, lo: -1, hi: 1, split: true, label: "forced"},
	{fn: "Nest3", args: []any{make([]float64, 3)}, lo: -1, hi: 1, split: true, label: "split"},
	{fn: "PtrSlice", args: []any{make([]float64, 3)}, lo: -1, hi: 1, split: true, label: "split"},
	{fn: "Gather", args: []any{make([]float64, 4)}, lo: -1, hi: 1, tapes: []string{}},
	{fn: "Segs", args: []any{make([]float64, 3), 0.0}, lo: -1, hi: 1},
	{fn: "Aux", args: []any{make([]float64, 4)}, lo: -1, hi: 1, tapes: []string{"tape"}},
	{fn: "Inclusive", args: []any{make([]float64, 4), 3}, lo: -1, hi: 1},
	{fn: "Band", args: []any{make([]float64, 3)}, lo: -1, hi: 1},
	{fn: "Search", args: []any{make([]float64, 3)}, lo: 0, hi: 1.2},

	// Calls by rules.
	{fn: "UseLin", args: []any{0.0, 0.0}, lo: -1, hi: 1, rules: linRule(false), label: "adjoint rule"},
	{fn: "UseLin", args: []any{0.0, 0.0}, lo: -1, hi: 1, rules: linRule(true), label: "vjp rule"},

	{fn: "State.step", mode: reverse.Mode{Callee: true}, wrt: []int{0, 1}, args: []any{&state{Q: make([]float64, 2), V: make([]float64, 2)}, 0.0, 0.0}, lo: -1, hi: 1},
}

// knownBugs lists the cases that find a bug of the transformer, skipped
// until it is fixed, each with the bug: by name (see execCase.name), or
// by function for all its cases.
var knownBugs = map[string]string{}

// knownBug returns the bug knownBugs lists for tc, or "".
func (tc execCase) knownBug() string {
	if bug, ok := knownBugs[tc.name()]; ok {
		return bug
	}
	return knownBugs[tc.fn]
}

// execPoints is the number of points of each check.
const execPoints = 3

func TestExec(t *testing.T) {
	for _, tc := range execCases {
		t.Run(tc.name(), func(t *testing.T) {
			// The explicit list of the transformer's known bugs, each with its bug
			// (knownBugs; empty today).
			if bug := tc.knownBug(); bug != "" {
				t.Skip(bug)
			}
			for _, optimize := range []bool{false, true} {
				runExec(t, tc, optimize)
			}
		})
	}
}

// TestExecCasesComplete: every exported function of testdata/rev/cases
// has a case (the others are the functions they call).
func TestExecCasesComplete(t *testing.T) {
	prog := program(t)
	for _, lp := range prog.Roots {
		if lp.Name != "cases" {
			continue
		}
		for _, name := range lp.Types.Scope().Names() {
			if _, ok := lp.Types.Scope().Lookup(name).(*types.Func); !ok || !token.IsExported(name) {
				continue
			}
			if !slices.ContainsFunc(execCases, func(tc execCase) bool { return tc.fn == name }) {
				t.Errorf("cases.%s has no case in execCases", name)
			}
		}
	}
}

// TestExecVariants runs the gradients of execCases as //gad:vjp and as
// the callee variant too: the same vector-Jacobian products.
func TestExecVariants(t *testing.T) {
	for _, tc := range execCases {
		if tc.mode != (reverse.Mode{}) || tc.opts != (ssaad.Options{}) || tc.resultOnly {
			continue
		}
		for _, m := range []reverse.Mode{{Seeded: true}, {Callee: true}} {
			tc := tc
			tc.mode, tc.tapes = m, nil
			t.Run(tc.name(), func(t *testing.T) {
				// The explicit list of the transformer's known bugs (knownBugs).
				if bug := tc.knownBug(); bug != "" {
					t.Skip(bug)
				}
				runExec(t, tc, true)
			})
		}
	}
}

// TestExecInlined runs execCases with the calls that the driver's cost
// model picks inlined (simplify.ChooseReversal), the primal pipeline
// inlining too: the shapes the transformer gets first from the driver.
func TestExecInlined(t *testing.T) {
	inlined := 0
	for _, tc := range execCases {
		// The tapes, and how often they are reserved, are those of the
		// inlined body (Recurrences' scratch, inlined, has a length known
		// on entry).
		tc.inline, tc.tapes, tc.grows = true, nil, 0
		t.Run(tc.name(), func(t *testing.T) {
			// The explicit list of the transformer's known bugs (knownBugs).
			if bug := tc.knownBug(); bug != "" {
				t.Skip(bug)
			}
			runExec(t, tc, true)
			inlined++
		})
	}
	// The cases whose calls the cost model inlines are this test's; with
	// none, it checks nothing TestExec does not (a cost model that stopped
	// inlining, or cases that lost their calls).
	if inlined == 0 && !t.Failed() {
		t.Error("the cost model inlines a call in none of execCases: TestExecInlined checks nothing")
	}
	t.Logf("%d of %d cases inline calls", inlined, len(execCases))
}

// name names the subtest: the function, and what differs from a
// gradient of all its float parameters.
func (tc execCase) name() string {
	s := tc.fn
	if n := tc.mode.Name(); n != "grad" {
		s += "/" + n
	}
	if tc.opts.Gonum {
		s += "/gonum"
	}
	if tc.opts.NoValue {
		s += "/novalue"
	}
	if tc.wrt != nil {
		s += fmt.Sprintf("/wrt%v", tc.wrt)
	}
	if tc.method {
		s += "/method"
	}
	if tc.label != "" {
		s += "/" + tc.label
	}
	return s
}

func runExec(t *testing.T, tc execCase, optimize bool) {
	t.Helper()
	prog := program(t)
	fn := lookup(t, prog, "cases", tc.fn)
	active := activity(fn, tc.wrt)
	env := newRevEnv(prog, optimize)
	primal := lower(t, prog, fn)
	if tc.rules != nil {
		attachRules(primal, tc.rules(t, prog))
	}
	if tc.inline {
		cost := simplify.ReverseCost
		cost.KeepInLoops = tc.opts.Checkpoint > 0 // as the driver does
		if plan := simplify.ChooseReversal(primal, env, cost); !plan.Inlines() {
			// Nothing to inline: the derivative is TestExec's, checked there.
			t.Skip("the cost model inlines no call: TestExec checks this derivative")
		}
		cfg := env.config()
		cfg.Env = env
		simplify.Run(primal, simplify.Primal, cfg)
	} else {
		simplify.Run(primal, simplify.Primal, env.config())
	}
	req := &ssaad.Request{Mode: tc.mode.Name(), Target: fn, Name: ir.FuncName(fn) + tc.mode.Suffix(), Active: active, Options: tc.opts, Method: tc.method, Split: tc.split}
	d, errs := tc.mode.Transform(primal, req, env)
	if tc.jointRefusal != "" && !tc.inline {
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, tc.jointRefusal) {
			t.Fatalf("optimize=%v: Transform: got %v, want the refusal %q", optimize, errs, tc.jointRefusal)
		}
		return
	}
	var warnings diag.List
	errs = slices.DeleteFunc(errs, func(d diag.Diagnostic) bool {
		if d.Warning {
			warnings = append(warnings, d)
		}
		return d.Warning
	})
	if len(errs) > 0 {
		t.Fatalf("optimize=%v: Transform: %v", optimize, errs)
	}
	switch {
	case tc.warning == "" && len(warnings) > 0:
		t.Errorf("optimize=%v: Transform warns %v", optimize, warnings)
	case tc.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0].Msg, tc.warning)):
		t.Errorf("optimize=%v: Transform warns %v, want %q", optimize, warnings, tc.warning)
	}
	if err := ir.Check(d); err != nil {
		t.Fatalf("optimize=%v: %v\n%s", optimize, err, d)
	}
	if sig, err := tc.mode.Signature(req); err != nil {
		t.Errorf("Signature: %v", err)
	} else if got, want := funcSig(d), unnamed(sig); got != want {
		t.Errorf("the derivative's signature is %s, Signature gives %s", got, want)
	}
	if tc.tapes != nil && optimize {
		if got := pushedTapes(d); !slices.Equal(got, tc.tapes) {
			t.Errorf("the derivative pushes to the tapes %v, want %v\n%s", got, tc.tapes, d)
		}
	}
	if tc.pushes != 0 && optimize {
		if got := pushedValues(d); got != tc.pushes {
			t.Errorf("the derivative pushes %d values to its tapes, want %d\n%s", got, tc.pushes, d)
		}
	}
	if tc.grows != 0 && optimize {
		if got := growCalls(d); got != tc.grows {
			t.Errorf("the derivative reserves tape space %d times, want %d\n%s", got, tc.grows, d)
		}
	}
	simplify.Run(d, simplify.Derivative, env.config())
	simplify.Run(d, simplify.Final, env.config())
	orig := lower(t, prog, fn)
	m := env.machine(orig, d)
	x := &execRun{tc: tc, active: active, m: m, primal: orig, d: d}
	for _, a := range tc.args {
		x.example = append(x.example, interp.FromGo(a))
	}
	n := 0
	for i, a := range x.example {
		if active[i] {
			n += len(irtest.Floats(nil, a))
		}
	}
	r := gadtest.NewRand(uint64(len(tc.fn)) + 7)
	s := &gadtest.Settings{Rel: tc.rel, Step: tc.step}
	for k := range execPoints {
		pt := gadtest.Uniform(r, n, tc.lo, tc.hi)
		outs := len(x.f(pt))
		w := gadtest.Direction(r, outs)
		if !x.seeded() {
			for i := range x.resultFloats(pt) {
				w[i] = 1 // //gad:grad's seed
			}
		}
		if err := gadtest.CheckVJP(x.f, x.vjp, pt, w, s); err != nil {
			t.Errorf("optimize=%v, point %d: %v\nderivative:\n%s", optimize, k, err, d)
			return
		}
		if x.stateErr != "" {
			t.Errorf("optimize=%v: %s\nderivative:\n%s", optimize, x.stateErr, d)
			return
		}
	}
}

// funcSig returns the signature of f without names (see unnamed).
func funcSig(f *ir.Func) string {
	var ps []types.Type
	for _, p := range f.Params {
		ps = append(ps, p.Type)
	}
	return sigString(ps, f.ResultTypes, f.Variadic)
}

// unnamed returns sig without names, its receiver as its first
// parameter, as funcSig writes it.
func unnamed(sig *types.Signature) string {
	var ps, rs []types.Type
	if sig.Recv() != nil {
		ps = append(ps, sig.Recv().Type())
	}
	for p := range sig.Params().Variables() {
		ps = append(ps, p.Type())
	}
	for r := range sig.Results().Variables() {
		rs = append(rs, r.Type())
	}
	return sigString(ps, rs, sig.Variadic())
}

func sigString(params, results []types.Type, variadic bool) string {
	vars := func(ts []types.Type) *types.Tuple {
		var vs []*types.Var
		for _, t := range ts {
			vs = append(vs, types.NewParam(0, nil, "", t))
		}
		return types.NewTuple(vs...)
	}
	return types.TypeString(types.NewSignatureType(nil, nil, nil, vars(params), vars(results), variadic), nil)
}

// linRule gives lin (2a + 3b) a rule by adjoint maps, written out or
// through a VJP function (linVJP) as //gad:rule vjp= does.
func linRule(viaVJP bool) func(t *testing.T, prog *frontend.Program) map[string]*templates.Rule {
	return func(t *testing.T, prog *frontend.Program) map[string]*templates.Rule {
		r := &templates.Rule{Pkg: "example.com/rev/cases", Name: "lin", Params: []string{"a", "b"}, Results: []string{"r"},
			Kind: templates.Smooth, Tangent: []string{"2 * da", "3 * db"}, Adjoint: []string{"2 * rBar", "3 * rBar"}}
		if viaVJP {
			r.VJP = lookup(t, prog, "cases", "linVJP")
			r.Adjoint = []string{templates.VJPCall + "(a, b, rBar)[0]", templates.VJPCall + "(a, b, rBar)[1]"}
		}
		return map[string]*templates.Rule{"lin": r}
	}
}

// attachRules gives the calls in f of the functions rules names their
// rules.
func attachRules(f *ir.Func, rules map[string]*templates.Rule) {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Func != nil && rules[v.Callee.Func.Name()] != nil {
				v.Callee.Rule = rules[v.Callee.Func.Name()]
			}
		}
	}
}

// activity returns the activity of fn's parameters with the varied ones
// listed in wrt; ssaad.DefaultActivity when wrt is nil.
func activity(fn *types.Func, wrt []int) []bool {
	if wrt == nil {
		return ssaad.DefaultActivity(fn)
	}
	active := make([]bool, len(ssaad.Params(fn)))
	for _, i := range wrt {
		active[i] = true
	}
	return active
}

// lower lowers fn, failing t if it does not lower.
func lower(t *testing.T, prog *frontend.Program, fn *types.Func) *ir.Func {
	t.Helper()
	f, diags := prog.Lower(fn)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return f
}

// pushedTapes returns the names of the tape variables of d (and of its
// control tape, "path") that some instruction appends to, sorted.
func pushedTapes(d *ir.Func) []string {
	out := []string{}
	for _, b := range d.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || v.Callee.Builtin != "append" || v.Args[0].Op != ir.OpLoad {
				continue
			}
			if a := v.Args[0].Args[0]; a.Op == ir.OpAlloc && (strings.HasPrefix(a.Name, "tape") || a.Name == "path") && !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// pushedValues returns the number of values d's appends to its tapes
// push, counted once in the code each.
func pushedValues(d *ir.Func) int {
	n := 0
	for _, b := range d.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Builtin == "append" && !v.Callee.Spread && v.Args[0].Op == ir.OpLoad {
				if a := v.Args[0].Args[0]; a.Op == ir.OpAlloc && strings.HasPrefix(a.Name, "tape") {
					n += len(v.Args) - 1
				}
			}
		}
	}
	return n
}

// growCalls returns the number of calls of slices.Grow in d.
func growCalls(d *ir.Func) int {
	n := 0
	for _, b := range d.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Func != nil && v.Callee.Func.Name() == "Grow" {
				n++
			}
		}
	}
	return n
}

// execRun runs a case's primal and derivative on points.
type execRun struct {
	tc        execCase
	active    []bool
	m         *interp.Machine
	primal, d *ir.Func
	example   []interp.Value
	// stateErr reports the first point at which the derivative left the
	// arguments' memory in another state than the primal.
	stateErr string
}

func (x *execRun) seeded() bool { return x.tc.mode.Seeded || x.tc.mode.Callee }

// resultFloats returns the floats of the primal's results at pt.
func (x *execRun) resultFloats(pt []float64) []float64 {
	var out []float64
	for _, r := range x.call(x.primal, x.args(pt)) {
		out = irtest.Floats(out, r)
	}
	return out
}

// args returns fresh arguments whose varied floats are pt's (the
// example's when pt is nil).
func (x *execRun) args(pt []float64) []interp.Value {
	out := make([]interp.Value, len(x.example))
	for i, a := range x.example {
		if x.active[i] && pt != nil {
			out[i], pt = irtest.WithFloats(a, pt)
		} else {
			out[i], _ = irtest.WithFloats(a, nil)
		}
	}
	return out
}

// call runs f, panicking on an error (gadtest reports the panic).
func (x *execRun) call(f *ir.Func, args []interp.Value) []interp.Value {
	res, err := x.m.Call(f, args...)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", f.Name, err))
	}
	return res
}

// memory reports whether parameter i's memory is an output: a varied
// parameter that is, or holds, slices or pointers (but for gonum=true,
// whose gradient is of the result alone).
func (x *execRun) memory(i int) bool {
	return x.active[i] && !x.tc.opts.Gonum && !x.tc.resultOnly && ssaad.RefersToMemory(x.primal.Params[i].Type)
}

// outputs flattens what a call of the primal produces: its results, then
// the memory of the varied parameters after the call.
func (x *execRun) outputs(res []interp.Value, args []interp.Value) []float64 {
	var out []float64
	for _, r := range res {
		out = irtest.Floats(out, r)
	}
	for i, a := range args {
		if x.memory(i) {
			out = irtest.Floats(out, a)
		}
	}
	return out
}

// f is the primal, flattened for gadtest.
func (x *execRun) f(pt []float64) []float64 {
	args := x.args(pt)
	return x.outputs(x.call(x.primal, args), args)
}

// vjp runs the derivative at pt with the adjoints w of the outputs, adds
// the gradient to xBar and returns the outputs. It also checks that the
// derivative leaves the arguments' memory as the primal does.
func (x *execRun) vjp(pt, w, xBar []float64) []float64 {
	pargs := x.args(pt)
	pres := x.call(x.primal, pargs)
	if x.tc.opts.Gonum {
		grad := interp.FromGo(slices.Repeat([]float64{math.NaN()}, len(pt)))
		args := x.args(pt) // a receiver, then x
		last := len(args) - 1
		x.call(x.d, append(args[:last:last], grad, args[last]))
		for i, g := range irtest.Floats(nil, grad) {
			xBar[i] += g
		}
		return nil
	}
	// The adjoints of the results, then of the parameters' memory.
	var wres [][]float64
	for _, r := range pres {
		k := len(irtest.Floats(nil, r))
		wres, w = append(wres, w[:k]), w[k:]
	}
	args := x.args(pt)
	var dargs []interp.Value
	shadows := map[int]interp.Value{}
	for i, a := range args {
		dargs = append(dargs, a)
		if !x.active[i] || !ssaad.RefersToMemory(x.primal.Params[i].Type) {
			continue
		}
		var s interp.Value
		if x.tc.resultOnly {
			s, _ = irtest.WithFloats(a, make([]float64, len(irtest.Floats(nil, a))))
		} else {
			s, w = irtest.WithFloats(a, w)
		}
		if _, ok := x.primal.Params[i].Type.Underlying().(*types.Slice); !ok && !isPointer(x.primal.Params[i].Type) {
			s = interp.NewVar(s) // a struct or array holding memory: *shadow
		}
		shadows[i] = s
		dargs = append(dargs, s)
	}
	if x.seeded() {
		for k, r := range pres {
			if len(wres[k]) > 0 {
				seed, _ := irtest.WithFloats(r, wres[k])
				dargs = append(dargs, seed)
			}
		}
	}
	res := x.call(x.d, dargs)
	nres := len(pres)
	if x.tc.mode.Callee || x.tc.opts.NoValue {
		nres = 0
	}
	var g []float64
	k := nres
	for i := range args {
		switch {
		case !x.active[i]:
		case shadows[i] != nil:
			g = irtest.Floats(g, shadows[i])
		default:
			g = irtest.Floats(g, res[k])
			k++
		}
	}
	if len(g) != len(xBar) {
		panic(fmt.Sprintf("the derivative gives %d partials, want %d", len(g), len(xBar)))
	}
	for i := range g {
		xBar[i] += g[i]
	}
	if x.tc.mode.Callee {
		return nil // its memory is left in no particular state
	}
	if !interp.Identical(interp.Tuple(args), interp.Tuple(pargs)) && x.stateErr == "" {
		x.stateErr = fmt.Sprintf("at x = %v, the derivative leaves the arguments %s, the primal %s", pt, interp.Format(interp.Tuple(args)), interp.Format(interp.Tuple(pargs)))
	}
	if x.tc.opts.NoValue {
		return nil
	}
	return x.outputs(res[:nres], args)
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}
