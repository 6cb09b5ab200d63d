package bench

// This file defines what the harness works on: derivative kinds, problems
// (one objective at one size, flattened) and suites (an objective and its
// sizes, in tiers).

// A Kind is a way of computing a derivative: a column of the table.
type Kind int

const (
	// JVP is gadgen's forward mode, FJVP: the value and one directional
	// derivative ∇f·v.
	JVP Kind = iota
	// Grad is gadgen's reverse mode, FGrad: the value and the whole
	// gradient.
	Grad
	// HVP is gadgen's Hessian-vector product, FHVP (//gad:hvp: forward
	// mode over reverse mode): the value and ∇²F·v.
	HVP
	// Hand is the hand-written gradient, the reference.
	Hand
	// FD is gonum's fd.Gradient with central differences: 2n evaluations
	// of the function, so only at small sizes.
	FD
	// JVPO0 and GradO0 are JVP and Grad generated without optimization
	// (the directive option opt=0, gadgen -O0): the ablation.
	JVPO0
	GradO0
)

// Kinds lists the kinds in the order of the table's columns.
var Kinds = []Kind{JVP, Grad, HVP, Hand, FD, JVPO0, GradO0}

// Unoptimized returns the kind that is k generated without optimization,
// and whether there is one.
func (k Kind) Unoptimized() (Kind, bool) {
	switch k {
	case JVP:
		return JVPO0, true
	case Grad:
		return GradO0, true
	}
	return k, false
}

func (k Kind) String() string {
	switch k {
	case JVP:
		return "jvp"
	case Grad:
		return "grad"
	case HVP:
		return "hvp"
	case Hand:
		return "hand"
	case FD:
		return "fd"
	case JVPO0:
		return "jvp-O0"
	case GradO0:
		return "grad-O0"
	}
	return "Kind(?)"
}

// Title is the kind's column header.
func (k Kind) Title() string {
	switch k {
	case JVP:
		return "gadgen JVP"
	case Grad:
		return "gadgen grad"
	case HVP:
		return "gadgen HVP"
	case Hand:
		return "hand grad"
	case FD:
		return "fd central"
	case JVPO0:
		return "JVP -O0"
	case GradO0:
		return "grad -O0"
	}
	return k.String()
}

// A Problem is one objective at one size, flattened: its varied inputs
// form the vector X and every function takes such a vector. A nil function
// is a derivative the problem does not have.
type Problem struct {
	// X is the point at which everything is evaluated and timed.
	X []float64
	// F is the function (the primal).
	F func(x []float64) float64
	// JVP returns F(x) and ∇F(x)·v.
	JVP func(x, v []float64) (float64, float64)
	// Grad and Hand return F(x) and add ∇F(x) to dx.
	Grad func(x, dx []float64) float64
	Hand func(x, dx []float64) float64
	// HVP returns F(x) and stores ∇²F(x)·v in hv (overwriting it).
	HVP func(x, v, hv []float64) float64
	// JVPO0 and GradO0 are JVP and Grad generated without optimization.
	JVPO0  func(x, v []float64) (float64, float64)
	GradO0 func(x, dx []float64) float64
	// FD asks for fd.Gradient to be verified and timed.
	FD bool
}

// has reports whether p has a derivative of kind k.
func (p *Problem) has(k Kind) bool {
	switch k {
	case JVP:
		return p.JVP != nil
	case Grad:
		return p.Grad != nil
	case HVP:
		return p.HVP != nil
	case Hand:
		return p.Hand != nil
	case FD:
		return p.FD
	case JVPO0:
		return p.JVPO0 != nil
	case GradO0:
		return p.GradO0 != nil
	}
	return false
}

// A Tier groups sizes by cost.
type Tier int

const (
	// Quick sizes are tiny, for smoke runs (gadbench -quick, tests); they
	// are not part of the full suite.
	Quick Tier = iota
	// Small, Medium and Large are the sizes of README.md's suite table.
	// go test -bench runs Small and Medium unless -large is given;
	// gadbench runs all three.
	Small
	Medium
	Large
	// Huge sizes take too long for the default run (gadbench -huge).
	Huge
	// CheckOnly sizes are verified in every run but not timed: they cover
	// what the timed sizes cannot (S1c's timed sizes have a gradient that
	// is exactly zero).
	CheckOnly
)

func (t Tier) String() string {
	return [...]string{"Quick", "Small", "Medium", "Large", "Huge", "CheckOnly"}[t]
}

// A Size is one size of a suite.
type Size struct {
	// Label names the size in the table and in benchmark names: "n=1000".
	Label string
	// N is the size parameter that time should scale with (for the
	// log-log slopes of Suite.Scaling).
	N    float64
	Tier Tier
	// Make builds the problem (allocating its data).
	Make func() *Problem
}

// A Suite is one objective of README.md's suite table and its sizes.
type Suite struct {
	ID   string // "S1a"
	Name string // "Rosenbrock"
	// Target is gadgen's target, from README.md's suite table.
	Target string
	Sizes  []Size
	// Scaling asks for the log-log slope of time against Size.N.
	Scaling bool
	// Aside, when not empty, says why the suite is left out of the
	// headline means (a variant of another suite's objective, or a
	// higher-order suite).
	Aside string
	// Pending lists the derivatives that the suite's objective asks for
	// but gadgen does not generate yet, with what gadgen says about them.
	// The table shows them as not generated yet; a Problem of the suite
	// must not have them.
	Pending map[Kind]string
}
