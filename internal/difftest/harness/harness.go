// Package harness checks the derivatives that gadgen generated for a
// batch of difftest programs against each other and against the
// complex-step derivatives of the programs' complex128 twins. Package
// difftest copies this file into each batch's module, with a main that
// lists the functions ([Case]) and calls [Main]; it is compiled and
// tested here too.
//
// Everything works on flattened values, through reflection: the varied
// inputs of F (its parameters holding floats, but not a method's
// receiver) are one vector x, in parameter order, each parameter walked
// in its layout (slices of [Case.Len] elements, array elements, struct
// fields, pointees); its outputs are one vector y: the floats of its
// results, then the contents of the memory its varied parameters reach
// (slice elements and pointees), as F leaves it. A tangent, adjoint or
// Taylor coefficient has the layout of its primal.
//
// At each point, with x, v, w drawn uniformly in [−1, 1), it checks
//
//   - twin: Re C(x + i·h·v) = F(x), and takes J·v = Im C(x + i·h·v)/h
//     (h = 1e-20) as the exact directional derivative;
//   - jvp: FJVP returns F's outputs and J·v;
//   - grad, vjp: FGrad or FVJP returns F's outputs and x̄ = Jᵀw with
//     ⟨x̄, v⟩ = ⟨w, J·v⟩ against the oracle, and against FJVP's J·v (the
//     dot-product test between the modes); the seeds of slices and
//     pointers are their shadows on entry, so FGrad's accumulation into
//     a nonzero shadow is checked too;
//   - taylor, line: FTaylor returns F's outputs and, along the curve
//     c(t) = x + v·t + x2·t² + x3·t³ (x2 = x3 = 0 for seed=line), the
//     first coefficient J·v (both against the oracle and FJVP) and the
//     next ones against central differences, extrapolated, of the exact
//     g′(t) = Im C(c(t) + i·h·c′(t))/h, unless the twin's branches differ
//     between the points of the difference (a kink: skipped);
//   - tlanes, llanes: FTaylor with lanes=L returns F's outputs and, for
//     each lane l, the coefficients of the jet along the lane's curve
//     (lane 1 the point's, the others drawn apart): each lane against
//     FTaylor without lanes along its curve (the same code, so within
//     1e-12) where that passed, or else as taylor and line are checked.
//
// One line per case and mode goes to the output: "PASS name mode
// checks" (at least one check), "SKIP name mode why" (why "no check" when
// nothing was compared), "FAIL name mode kind: details", and
// "RUN name mode" before each. A derivative that runs longer than the
// timeout or grows the heap beyond the limit ends the process after a
// "HANG name mode why" line.
package harness

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Case is one function of a batch and its derivatives; a nil derivative
// is not checked.
type Case struct {
	// Name names the function in the output ("F3", "Model.F3").
	Name string
	// Len is the length of slices and the value of int parameters.
	Len int
	// Recv says that the first parameter of F is a method's receiver,
	// which is not varied (F is a method expression).
	Recv bool
	// F is the function and C its complex128 twin.
	F, C any
	// JVP is FJVP.
	JVP any
	// Rev is FGrad, or FVJP when Seeded.
	Rev    any
	Seeded bool
	// Taylor is FTaylor with seed=jet and Line with seed=line, both of
	// order Order.
	Taylor, Line any
	Order        int
	// TaylorLanes and LineLanes are the same with lanes=Lanes: Lanes
	// jets at once.
	TaylorLanes, LineLanes any
	Lanes                  int
	// HVP, Hessian, HessDiag and Laplacian are the second-order helpers
	// (second.go), with respect to F's parameter Wrt (a []float64; a
	// method's receiver is parameter 0), the others fixed.
	HVP, Hessian, HessDiag, Laplacian any
	Wrt                               int
	// passed holds the modes checked so far without failure or skip:
	// the references of the modes checked after them.
	passed map[string]bool
}

// Config says how to check.
type Config struct {
	Seed    uint64
	Points  int             // points per case
	Skip    map[string]bool // "name mode" pairs not to run
	Timeout time.Duration   // per derivative call
	MaxHeap uint64          // bytes
	Out     io.Writer
	// Reset, Trace, Margin and Largest give access to the twins' trace
	// of branches, to the margin of their comparisons and to the largest
	// values they met (package cmath).
	Reset   func()
	Trace   func() uint64
	Margin  func() float64
	Largest func() float64
}

// Main runs the cases with the settings of the command line and exits
// with status 1 if a check failed.
func Main(cases []Case, reset func(), trace func() uint64, margin, largest func() float64) {
	seed := flag.Uint64("seed", 1, "seed of the random points")
	points := flag.Int("points", 2, "points per case")
	skip := flag.String("skip", "", "comma-separated `name:mode` pairs not to run")
	timeout := flag.Duration("timeout", 5*time.Second, "time limit of one call")
	flag.Parse()
	cfg := Config{Seed: *seed, Points: *points, Skip: map[string]bool{}, Timeout: *timeout,
		MaxHeap: 2 << 30, Out: os.Stdout, Reset: reset, Trace: trace, Margin: margin, Largest: largest}
	for _, s := range strings.Split(*skip, ",") {
		if name, mode, ok := strings.Cut(s, ":"); ok {
			cfg.Skip[name+" "+mode] = true
		}
	}
	if Run(cases, cfg) > 0 {
		os.Exit(1)
	}
}

// Tolerances, relative. See agree.
const (
	relValue  = 1e-13 // a derivative's primal outputs against F's
	relFirst  = 1e-8  // first derivatives against the oracle and each other
	relSecond = 1e-7  // Taylor coefficient 2 against differences
	// Taylor coefficient 3 against second differences of g′, which reach
	// about five digits where g′ curves fast (a case checked in 50-digit
	// arithmetic: gadgen's coefficient agreed to twelve, the differences
	// to five); a wrong rule is off in the first digit.
	relThird = 1e-4
	// relLane: a lane of a jet with lanes against the jet along the
	// lane alone, the same operations on the same numbers (the
	// lanes' code may only group them otherwise).
	relLane   = 1e-12
	h         = 1e-20 // complex step
	eps       = 4e-3  // largest step of the differences of g′
	maxValue  = 1e12  // larger outputs are not checked
	minMargin = 1e-10 // closer comparisons are not trusted
	// maxIntermediate bounds the values (and derivatives) of a trusted
	// evaluation: the cancellation of such values leaves an error of
	// about 2⁻⁵³·1e6 ≈ 1e-10, within the tolerances.
	maxIntermediate = 1e6
	// derivFloor·|y| is the floor of the scale of first derivatives.
	derivFloor = 1e-4
)

// watchdog ends the process when a call runs too long or grows the heap.
type watchdog struct {
	mu      sync.Mutex // serializes output
	out     io.Writer
	current atomic.Pointer[running]
}

type running struct {
	name, mode string
	start      time.Time
}

func (wd *watchdog) printf(format string, args ...any) {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	fmt.Fprintf(wd.out, format, args...)
}

func (wd *watchdog) watch(timeout time.Duration, maxHeap uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		time.Sleep(10 * time.Millisecond)
		r := wd.current.Load()
		if r == nil {
			continue
		}
		metrics.Read(sample)
		why := ""
		if d := time.Since(r.start); d > timeout {
			why = fmt.Sprintf("still running after %v", timeout)
		} else if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > maxHeap {
			why = fmt.Sprintf("heap beyond %d MiB", maxHeap>>20)
		}
		if why != "" {
			wd.printf("HANG %s %s %s\n", r.name, r.mode, why)
			os.Exit(3)
		}
	}
}

// Run checks the cases and returns the number of failures.
func Run(cases []Case, cfg Config) int {
	if cfg.Points <= 0 {
		cfg.Points = 2
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.MaxHeap == 0 {
		cfg.MaxHeap = 2 << 30
	}
	if cfg.Reset == nil {
		cfg.Reset = func() {}
	}
	if cfg.Trace == nil {
		cfg.Trace = func() uint64 { return 0 }
	}
	if cfg.Margin == nil {
		cfg.Margin = func() float64 { return math.Inf(1) }
	}
	if cfg.Largest == nil {
		cfg.Largest = func() float64 { return 0 }
	}
	debug.SetMaxStack(256 << 20)
	wd := &watchdog{out: cfg.Out}
	go wd.watch(cfg.Timeout, cfg.MaxHeap)
	failures := 0
	for i := range cases {
		c := &cases[i]
		c.passed = map[string]bool{}
		for _, m := range c.modes() {
			if cfg.Skip[c.Name+" "+m.name] {
				continue
			}
			wd.printf("RUN %s %s\n", c.Name, m.name)
			wd.current.Store(&running{c.Name, m.name, time.Now()})
			res := check(c, m, &cfg)
			wd.current.Store(nil)
			switch {
			case res.fail != "":
				failures++
				wd.printf("FAIL %s %s %s\n", c.Name, m.name, oneLine(res.fail))
			case res.skip != "":
				wd.printf("SKIP %s %s %s\n", c.Name, m.name, oneLine(res.skip))
			case res.checks == 0:
				// Nothing compared at any point: not a pass.
				wd.printf("SKIP %s %s no check\n", c.Name, m.name)
			default:
				c.passed[m.name] = true
				wd.printf("PASS %s %s %d\n", c.Name, m.name, res.checks)
			}
		}
	}
	wd.printf("DONE %d\n", failures)
	return failures
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " | ") }

// mode is one derivative of a case.
type mode struct {
	name string
	fn   any
}

func (c *Case) modes() []mode {
	ms := []mode{{"twin", c.C}}
	if c.JVP != nil {
		ms = append(ms, mode{"jvp", c.JVP})
	}
	if c.Rev != nil {
		name := "grad"
		if c.Seeded {
			name = "vjp"
		}
		ms = append(ms, mode{name, c.Rev})
	}
	if c.Taylor != nil {
		ms = append(ms, mode{"taylor", c.Taylor})
	}
	if c.Line != nil {
		ms = append(ms, mode{"line", c.Line})
	}
	if c.TaylorLanes != nil {
		ms = append(ms, mode{"tlanes", c.TaylorLanes})
	}
	if c.LineLanes != nil {
		ms = append(ms, mode{"llanes", c.LineLanes})
	}
	// After line and taylor, their references; the Hessian last, which
	// the others check.
	for _, m := range []mode{{"hvp", c.HVP}, {"hessdiag", c.HessDiag}, {"laplacian", c.Laplacian}, {"hessian", c.Hessian}} {
		if m.fn != nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// result is the outcome of one case and mode.
type result struct {
	checks     int
	fail, skip string
}

// failure is a check that does not hold; it is panicked and recovered
// by check.
type failure struct{ msg string }

func failf(format string, args ...any) { panic(failure{fmt.Sprintf(format, args...)}) }

// skipped leaves a case and mode unchecked.
type skipped struct{ why string }

// check runs the checks of one mode of c at every point.
func check(c *Case, m mode, cfg *Config) (res result) {
	defer func() {
		switch p := recover().(type) {
		case nil:
		case failure:
			res.fail = p.msg
		case skipped:
			res.skip = p.why
		default:
			res.fail = fmt.Sprintf("panic: %v%s", p, where(debug.Stack()))
		}
	}()
	wrt := -1
	if isSecond(m.name) {
		wrt = c.Wrt
	}
	s, err := newShape(c, wrt)
	if err != nil {
		failf("harness: %v", err)
	}
	if err := s.checkSignature(m.name, reflect.TypeOf(m.fn)); err != nil {
		failf("signature: %v", err)
	}
	for p := range cfg.Points {
		pt := s.point(cfg.Seed, p)
		y0, ok := s.safePrimal(pt, m.name == "twin")
		if !ok {
			panic(skipped{"outputs not finite or beyond 1e12"})
		}
		ctx := &ctxt{s: s, pt: pt, y0: y0, cfg: cfg}
		if why := ctx.illConditioned(m.name == "twin"); why != "" {
			panic(skipped{why})
		}
		switch m.name {
		case "twin":
			ctx.twin()
		case "jvp":
			ctx.jvp()
		case "grad", "vjp":
			ctx.rev()
		case "taylor", "line":
			ctx.taylor(m.name == "line")
		case "tlanes", "llanes":
			ctx.lanes(m.name == "llanes")
		case "hvp", "hessian", "hessdiag", "laplacian":
			ctx.second(m.name, m.fn)
		}
		res.checks += ctx.checks
	}
	return res
}

// where returns the first frame of a stack in a generated file.
func where(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for _, l := range lines {
		if strings.Contains(l, "_grad.go:") || strings.Contains(l, "_grad_test.go:") {
			return " at " + strings.TrimSpace(l)
		}
	}
	return ""
}

// shape is the flattened layout of a case.
type shape struct {
	c               *Case
	f, fc           reflect.Value
	params          []reflect.Type
	results         []reflect.Type
	varied          []bool
	nIn, nRes, nOut int
	nInactive       int // float slots of the parameters that are not varied
	// wrt is the only varied parameter of a second-order helper (-1:
	// every parameter that holds floats but a receiver); the outputs
	// hold the memory of every parameter then.
	wrt int
}

// newShape returns the layout of c, with every parameter that holds
// floats varied but a receiver, or with wrt ≥ 0 that parameter only.
func newShape(c *Case, wrt int) (*shape, error) {
	s := &shape{c: c, f: reflect.ValueOf(c.F), fc: reflect.ValueOf(c.C), wrt: wrt}
	ft, ct := s.f.Type(), s.fc.Type()
	if ft.Kind() != reflect.Func || ct.Kind() != reflect.Func || ft.IsVariadic() {
		return nil, fmt.Errorf("F and C must be functions, not variadic")
	}
	if ft.NumIn() != ct.NumIn() || ft.NumOut() != ct.NumOut() {
		return nil, fmt.Errorf("F is %v and its twin %v", ft, ct)
	}
	for i := range ft.NumIn() {
		p := ft.In(i)
		s.params = append(s.params, p)
		v := holdsFloat(p) && !(c.Recv && i == 0)
		if wrt >= 0 {
			v = i == wrt
		}
		s.varied = append(s.varied, v)
		if n, cn := count(p, c.Len), count(ct.In(i), c.Len); n != cn {
			return nil, fmt.Errorf("parameter %d: %d floats, %d in the twin", i, n, cn)
		}
		if v {
			s.nIn += count(p, c.Len)
		} else {
			s.nInactive += count(p, c.Len)
		}
		if v || wrt >= 0 {
			s.nOut += countMem(p, c.Len, false)
		}
	}
	for i := range ft.NumOut() {
		s.results = append(s.results, ft.Out(i))
		s.nRes += count(ft.Out(i), c.Len)
	}
	s.nOut += s.nRes
	if s.nIn == 0 {
		return nil, fmt.Errorf("no varied parameter")
	}
	if wrt >= 0 && (wrt >= ft.NumIn() || ft.In(wrt) != reflect.TypeFor[[]float64]()) {
		return nil, fmt.Errorf("parameter %d is not a []float64", wrt)
	}
	return s, nil
}

// checkSignature checks the shape of a derivative's type against the
// conventions of gadgen's README.
func (s *shape) checkSignature(mode string, t reflect.Type) error {
	if t == nil || t.Kind() != reflect.Func {
		return fmt.Errorf("%v is not a function", t)
	}
	var in, out []reflect.Type
	floatResults := 0
	for _, r := range s.results {
		if holdsFloat(r) {
			floatResults++
		}
	}
	switch mode {
	case "twin":
		return nil
	case "jvp":
		for i, p := range s.params {
			in = append(in, p)
			if s.varied[i] {
				in = append(in, p)
			}
		}
		out = append(out, s.results...)
		for _, r := range s.results {
			if holdsFloat(r) {
				out = append(out, r)
			}
		}
	case "grad", "vjp":
		out = append(out, s.results...)
		for i, p := range s.params {
			in = append(in, p)
			if !s.varied[i] {
				continue
			}
			switch {
			case pointerLike(p):
				in = append(in, p)
			case valueWithMemory(p):
				in = append(in, reflect.PointerTo(p))
			default:
				out = append(out, p)
			}
		}
		if mode == "vjp" {
			for _, r := range s.results {
				if holdsFloat(r) {
					in = append(in, r)
				}
			}
		} else if len(s.results) != 1 || !isFloat(s.results[0]) {
			return fmt.Errorf("grad of a function without exactly one float result")
		}
	case "hvp", "hessian", "hessdiag", "laplacian":
		return s.secondSignature(mode, t)
	case "taylor", "line", "tlanes", "llanes":
		// Lanes: each coefficient of the one-lane signature, L times.
		k, lanes := s.c.Order, 1
		if mode == "tlanes" || mode == "llanes" {
			lanes = s.c.Lanes
			if lanes < 1 {
				return fmt.Errorf("%s without the number of lanes", mode)
			}
		}
		ink := k
		if mode == "line" || mode == "llanes" {
			ink = 1
		}
		for i, p := range s.params {
			in = append(in, p)
			for range ink * lanes {
				if s.varied[i] {
					in = append(in, p)
				}
			}
		}
		out = append(out, s.results...)
		for _, r := range s.results {
			if holdsFloat(r) {
				for range k * lanes {
					out = append(out, r)
				}
			}
		}
	}
	if got, want := typesOf(t), funcType(in, out); got != want {
		return fmt.Errorf("got %s, want %s", got, want)
	}
	return nil
}

func typesOf(t reflect.Type) string {
	var in, out []reflect.Type
	for i := range t.NumIn() {
		in = append(in, t.In(i))
	}
	for i := range t.NumOut() {
		out = append(out, t.Out(i))
	}
	return funcType(in, out)
}

// funcType prints a function type, without the packages of named types:
// each package of a batch declares the types again.
func funcType(in, out []reflect.Type) string {
	str := func(ts []reflect.Type) string {
		var ss []string
		for _, t := range ts {
			ss = append(ss, qualifierRE.ReplaceAllString(t.String(), ""))
		}
		return strings.Join(ss, ", ")
	}
	return "func(" + str(in) + ") (" + str(out) + ")"
}

var qualifierRE = regexp.MustCompile(`\b[a-z][a-z0-9_]*\.`)

func isFloat(t reflect.Type) bool {
	return t.Kind() == reflect.Float64 || t.Kind() == reflect.Float32
}

func pointerLike(t reflect.Type) bool {
	return t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer
}

// valueWithMemory reports whether t is a struct or array that holds
// slices or pointers: reverse mode gives such a parameter a pointer
// shadow.
func valueWithMemory(t reflect.Type) bool {
	return (t.Kind() == reflect.Struct || t.Kind() == reflect.Array) && refersToMemory(t)
}

func refersToMemory(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Pointer:
		return true
	case reflect.Array:
		return refersToMemory(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if refersToMemory(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

func holdsFloat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return holdsFloat(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsFloat(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// count returns the number of float slots of a value of type t.
func count(t reflect.Type, n int) int {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return 1
	case reflect.Slice:
		return n * count(t.Elem(), n)
	case reflect.Array:
		return t.Len() * count(t.Elem(), n)
	case reflect.Pointer:
		return count(t.Elem(), n)
	case reflect.Struct:
		k := 0
		for i := range t.NumField() {
			k += count(t.Field(i).Type, n)
		}
		return k
	}
	return 0
}

// countMem returns the number of float slots of a value of type t that
// are in memory its copies share (inMem: the value itself is).
func countMem(t reflect.Type, n int, inMem bool) int {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		if inMem {
			return 1
		}
	case reflect.Slice:
		return n * countMem(t.Elem(), n, true)
	case reflect.Array:
		return t.Len() * countMem(t.Elem(), n, inMem)
	case reflect.Pointer:
		return countMem(t.Elem(), n, true)
	case reflect.Struct:
		k := 0
		for i := range t.NumField() {
			k += countMem(t.Field(i).Type, n, inMem)
		}
		return k
	}
	return 0
}

// build returns a new value of type t whose float slots are taken from
// src in layout order; ints are n.
func build(t reflect.Type, n int, src *[]complex128) reflect.Value {
	v := reflect.New(t).Elem()
	fill(v, n, src, false, false)
	return v
}

// fill sets the float slots of v from src in layout order, all of them,
// or with mem only those in shared memory (inMem: v itself is; the others
// are left zero); ints are n.
func fill(v reflect.Value, n int, src *[]complex128, mem, inMem bool) {
	next := func() (complex128, bool) {
		if mem && !inMem {
			return 0, false
		}
		z := (*src)[0]
		*src = (*src)[1:]
		return z, true
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if z, ok := next(); ok {
			v.SetFloat(real(z))
		}
	case reflect.Complex64, reflect.Complex128:
		if z, ok := next(); ok {
			v.SetComplex(z)
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(n))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(v.Index(i), n, src, mem, true)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), n, src, mem, inMem)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n, src, mem, true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				fill(v.Field(i), n, src, mem, inMem)
			}
		}
	}
}

// walk appends the float slots of v to dst, all of them, or with mem
// only those in shared memory (inMem: v itself is).
func walk(dst []complex128, v reflect.Value, mem, inMem bool) []complex128 {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if !mem || inMem {
			dst = append(dst, complex(v.Float(), 0))
		}
	case reflect.Complex64, reflect.Complex128:
		if !mem || inMem {
			dst = append(dst, v.Complex())
		}
	case reflect.Slice:
		for i := range v.Len() {
			dst = walk(dst, v.Index(i), mem, true)
		}
	case reflect.Array:
		for i := range v.Len() {
			dst = walk(dst, v.Index(i), mem, inMem)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			dst = walk(dst, v.Elem(), mem, true)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			dst = walk(dst, v.Field(i), mem, inMem)
		}
	}
	return dst
}

// point is the random data of one point.
type point struct {
	x, v, w, x2, x3 []float64
	inactive        []float64 // floats of the parameters that are not varied
	// lanes are the curves of the lanes after the first (whose curve is
	// v, x2, x3), drawn from a generator of their own so that the other
	// data do not depend on Lanes.
	lanes []curve
}

// curve holds the coefficients 1, 2, 3 of a curve x + v·t + x2·t² + x3·t³.
type curve struct{ v, x2, x3 []float64 }

func (s *shape) point(seed uint64, p int) point {
	h := uint64(14695981039346656037)
	for _, b := range []byte(s.c.Name) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	r := rand.New(rand.NewPCG(seed, h+uint64(p)))
	vec := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 2*r.Float64() - 1
		}
		return x
	}
	pt := point{x: vec(s.nIn), v: vec(s.nIn), w: vec(s.nOut), x2: vec(s.nIn), x3: vec(s.nIn), inactive: vec(s.nInactive)}
	r = rand.New(rand.NewPCG(seed, h+uint64(p)+1<<40))
	for range s.c.Lanes - 1 {
		pt.lanes = append(pt.lanes, curve{vec(s.nIn), vec(s.nIn), vec(s.nIn)})
	}
	return pt
}

func toComplex(x []float64) []complex128 {
	z := make([]complex128, len(x))
	for i, a := range x {
		z[i] = complex(a, 0)
	}
	return z
}

func realParts(z []complex128) []float64 {
	x := make([]float64, len(z))
	for i, a := range z {
		x[i] = real(a)
	}
	return x
}

// args builds the arguments of fn, a function of F's parameters (with
// the types of its own package: each package of a batch declares the
// types again) at x; for each varied parameter, extra returns the values
// to pass after it, of the types next returns in turn. next goes on after
// the parameters.
func (s *shape) args(fn reflect.Value, x, inactive []complex128, extra func(i int, next func() reflect.Type) []reflect.Value) (args, primals []reflect.Value, next func() reflect.Type) {
	ft := fn.Type()
	k := 0
	next = func() reflect.Type {
		if k >= ft.NumIn() {
			failf("signature: %v has too few parameters", ft)
		}
		k++
		return ft.In(k - 1)
	}
	for i := range s.params {
		p := next()
		var a reflect.Value
		if s.varied[i] {
			a = build(p, s.c.Len, &x)
		} else {
			a = build(p, s.c.Len, &inactive)
		}
		primals = append(primals, a)
		args = append(args, a)
		if s.varied[i] && extra != nil {
			args = append(args, extra(i, next)...)
		}
	}
	return args, primals, next
}

// outputs flattens results and the memory of the varied arguments.
func (s *shape) outputs(results, primals []reflect.Value) []complex128 {
	var y []complex128
	for _, r := range results {
		y = walk(y, r, false, false)
	}
	for i, a := range primals {
		if s.varied[i] || s.wrt >= 0 {
			y = walk(y, a, true, false)
		}
	}
	return y
}

// callF returns F's outputs at x; callC the twin's at z. inactive holds
// the floats of the parameters that are not varied.
func (s *shape) callF(x, inactive []float64) []float64 {
	args, primals, _ := s.args(s.f, toComplex(x), toComplex(inactive), nil)
	return realParts(s.outputs(s.f.Call(args), primals))
}

func (s *shape) callC(z []complex128, inactive []float64) []complex128 {
	args, primals, _ := s.args(s.fc, z, toComplex(inactive), nil)
	return s.outputs(s.fc.Call(args), primals)
}

// primal evaluates F at the point and says whether its outputs are
// finite and not too large.
func (s *shape) primal(pt point) ([]float64, bool) {
	y := s.callF(pt.x, pt.inactive)
	for _, a := range y {
		if math.IsNaN(a) || math.Abs(a) > maxValue {
			return y, false
		}
	}
	return y, true
}

// safePrimal is primal, which turns a panic of F into a failure of the
// twin mode (which reports the programs' own problems) and a skip of the
// others.
func (s *shape) safePrimal(pt point, twin bool) (y []float64, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			if twin {
				failf("F panics: %v", p)
			}
			panic(skipped{fmt.Sprintf("F panics: %v", p)})
		}
	}()
	return s.primal(pt)
}

// ctxt is the checking of one point.
type ctxt struct {
	s      *shape
	pt     point
	y0     []float64
	cfg    *Config
	checks int
	// lane is the lane being checked (1…L) of a jet with lanes, 0
	// otherwise: the messages of failures name it.
	lane int
}

// illConditioned says why the point cannot be checked, if the
// derivative along v overflows or is so large against the outputs
// (more than 1e8 times, with x and v in [−1, 1)) that rounding alone
// changes its digits beyond the tolerances: the program and its twin,
// or two derivatives, round differently. A twin that panics is a failure
// of the twin mode.
func (c *ctxt) illConditioned(twin bool) (why string) {
	defer func() {
		if p := recover(); p != nil {
			if twin {
				failf("the twin panics: %v", p)
			}
			why = fmt.Sprintf("the twin panics: %v", p)
		}
	}()
	jv, _ := c.oracle(c.pt.x, c.pt.v)
	// Against outputs smaller than 1 the same cancellation leaves more
	// noise: s + hypot(1.5, s) with s ≈ -2.6e4 is 4e-5, right to 1e-7
	// only (down to outputs of 1e-3, below which exact zeros stand).
	size := min(1, max(normInf(c.y0), normInf(jv), 1e-3))
	if c.cfg.Largest() > maxIntermediate*size {
		return fmt.Sprintf("large intermediates: the twin met %.1e, whose rounding the derivatives do not share", c.cfg.Largest())
	}
	if c.cfg.Margin() < minMargin {
		return fmt.Sprintf("near a tie: a comparison of values %.1e apart (relatively), which rounding may flip", c.cfg.Margin())
	}
	for _, a := range jv {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return "the derivative overflows"
		}
	}
	if normInf(jv) > 1e8*max(normInf(c.y0), 1) {
		return "ill-conditioned: |J·v| > 1e8·max(|y|, 1)"
	}
	return ""
}

// usable reports whether jv, the oracle's derivative along another
// direction than the point's, just computed, can be checked: the
// conditions of illConditioned.
func (c *ctxt) usable(jv []float64) bool {
	size := min(1, max(normInf(c.y0), normInf(jv), 1e-3))
	if c.cfg.Largest() > maxIntermediate*size || c.cfg.Margin() < minMargin {
		return false
	}
	for _, a := range jv {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return false
		}
	}
	return normInf(jv) <= 1e8*max(normInf(c.y0), 1)
}

// oracle returns J·d at x by the complex step, and the twin's trace.
func (c *ctxt) oracle(x, d []float64) ([]float64, uint64) {
	z := make([]complex128, len(x))
	for i := range x {
		z[i] = complex(x[i], h*d[i])
	}
	c.cfg.Reset()
	yc := c.s.callC(z, c.pt.inactive)
	tr := c.cfg.Trace()
	jd := make([]float64, len(yc))
	for i, a := range yc {
		jd[i] = imag(a) / h
	}
	return jd, tr
}

// agree reports whether got and want agree within rel, relative to
// their size and to scale, the size of the terms they come from.
func agree(got, want, scale, rel float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= rel*(math.Abs(got)+math.Abs(want)+scale)+1e-300
}

func normInf(x []float64) float64 {
	m := 0.0
	for _, a := range x {
		m = max(m, math.Abs(a))
	}
	return m
}

// inLane names the lane being checked, if any, in a failure's message.
func (c *ctxt) inLane() string {
	if c.lane == 0 {
		return ""
	}
	return fmt.Sprintf(" in lane %d of %d", c.lane, c.s.c.Lanes)
}

// dir returns the direction being checked: the point's v, or the first
// coefficient of a lane's curve.
func (c *ctxt) dir() []float64 {
	if c.lane > 1 {
		return c.pt.lanes[c.lane-2].v
	}
	return c.pt.v
}

// vecs checks got against want element by element.
func (c *ctxt) vecs(kind string, got, want []float64, rel float64) {
	c.checks++
	if len(got) != len(want) {
		failf("%s: %d values, want %d", kind, len(got), len(want))
	}
	scale := max(normInf(got), normInf(want))
	if rel >= relFirst {
		// Derivatives: a floor of 1e-4·|y| (the inputs and directions are
		// in [−1, 1)), for derivatives that are the residue of
		// cancellations of terms of the size of y.
		scale = max(scale, derivFloor*normInf(c.y0))
	}
	for i := range got {
		if !agree(got[i], want[i], scale, rel) {
			failf("%s: y[%d]%s: got %.17g, want %.17g (scale %.3g, rel %.0e) at x = %v along v = %v",
				kind, i, c.inLane(), got[i], want[i], scale, rel, c.pt.x, c.dir())
		}
	}
}

func (c *ctxt) twin() {
	z := make([]complex128, len(c.pt.x))
	for i := range z {
		z[i] = complex(c.pt.x[i], h*c.pt.v[i])
	}
	yc := c.s.callC(z, c.pt.inactive)
	// Within 1e-10: cmplx's functions round otherwise than math's, by a
	// few ulps that a loop of products (s *= x + exp(sin s)) compounds
	// to 6e-12; a wrong rewrite is off in the first digits.
	c.vecs("twin value", realParts(yc), c.y0, 1e-10)
}

// withTangents returns a function that builds, for each varied
// parameter, one value from each of the vectors ds.
func (s *shape) withTangents(ds ...[]float64) func(int, func() reflect.Type) []reflect.Value {
	srcs := make([][]complex128, len(ds))
	for k, d := range ds {
		srcs[k] = toComplex(d)
	}
	return func(_ int, next func() reflect.Type) []reflect.Value {
		var vs []reflect.Value
		for k := range srcs {
			vs = append(vs, build(next(), s.c.Len, &srcs[k]))
		}
		return vs
	}
}

// callJVP returns FJVP's outputs and tangents at x along v.
func (c *ctxt) callJVP(fn any, x, v []float64) (y, dy []float64) {
	s := c.s
	var tangents []reflect.Value
	extra := s.withTangents(v)
	f := reflect.ValueOf(fn)
	args, primals, _ := s.args(f, toComplex(x), toComplex(c.pt.inactive), func(i int, next func() reflect.Type) []reflect.Value {
		t := extra(i, next)
		tangents = append(tangents, t...)
		return t
	})
	out := f.Call(args)
	nr := len(s.results)
	y = realParts(s.outputs(out[:nr], primals))
	var dz []complex128
	for _, r := range out[nr:] {
		dz = walk(dz, r, false, false)
	}
	for _, t := range tangents {
		dz = walk(dz, t, true, false)
	}
	return y, realParts(dz)
}

func (c *ctxt) jvp() {
	jv, _ := c.oracle(c.pt.x, c.pt.v)
	y, dy := c.callJVP(c.s.c.JVP, c.pt.x, c.pt.v)
	c.vecs("value", y, c.y0, relValue)
	c.vecs("jvp", dy, jv, relFirst)
}

func dot(a, b []float64) (d, scale float64) {
	for i := range a {
		d += a[i] * b[i]
		scale += math.Abs(a[i] * b[i])
	}
	return d, scale
}

func (c *ctxt) rev() {
	s := c.s
	w := slices.Clone(c.pt.w)
	if !s.c.Seeded {
		w[0] = 1 // FGrad's seed; its result is the first output
	}
	wRes, wMem := toComplex(w[:s.nRes]), toComplex(w[s.nRes:])
	type shadow struct {
		i int
		v reflect.Value
	}
	var shadows []shadow
	f := reflect.ValueOf(s.c.Rev)
	args, primals, next := s.args(f, toComplex(c.pt.x), toComplex(c.pt.inactive), func(i int, next func() reflect.Type) []reflect.Value {
		p := s.params[i]
		switch {
		case pointerLike(p):
			d := build(next(), s.c.Len, &wMem)
			shadows = append(shadows, shadow{i, d})
			return []reflect.Value{d}
		case valueWithMemory(p):
			// A struct by value that holds slices or pointers: its
			// shadow is a *T holding the seeds of its memory; its
			// float fields receive their partials there.
			t := next()
			if t.Kind() != reflect.Pointer {
				failf("signature: the shadow of a %v is a %v", p, t)
			}
			d := reflect.New(t.Elem())
			fill(d.Elem(), s.c.Len, &wMem, true, false)
			shadows = append(shadows, shadow{i, d.Elem()})
			return []reflect.Value{d}
		}
		return nil
	})
	if s.c.Seeded {
		for _, r := range s.results {
			if holdsFloat(r) {
				args = append(args, build(next(), s.c.Len, &wRes))
			}
		}
	}
	out := f.Call(args)
	nr := len(s.results)
	y := realParts(s.outputs(out[:nr], primals))
	c.vecs("value", y, c.y0, relValue)
	// x̄ in the layout of x: shadows and returned adjoints, in parameter
	// order.
	var xbar []complex128
	ret := out[nr:]
	for i, p := range s.params {
		if !s.varied[i] {
			continue
		}
		if pointerLike(p) || valueWithMemory(p) {
			xbar = walk(xbar, shadows[0].v, false, false)
			shadows = shadows[1:]
		} else {
			xbar = walk(xbar, ret[0], false, false)
			ret = ret[1:]
		}
	}
	got, gscale := dot(realParts(xbar), c.pt.v)
	jv, _ := c.oracle(c.pt.x, c.pt.v)
	want, wscale := dot(w, jv)
	c.checks++
	floor := derivFloor * normInf(c.y0) * normInf(w) * float64(len(w))
	if !agree(got, want, gscale+wscale+floor, relFirst) {
		failf("oracle dot: ⟨x̄, v⟩ = %.17g, ⟨w, J·v⟩ = %.17g (complex step) at x = %v, v = %v, w = %v, x̄ = %v",
			got, want, c.pt.x, c.pt.v, w, realParts(xbar))
	}
	if s.c.JVP != nil {
		_, dy := c.callJVP(s.c.JVP, c.pt.x, c.pt.v)
		fwd, fscale := dot(w, dy)
		c.checks++
		if !agree(got, fwd, gscale+fscale+floor, relFirst) {
			failf("dot: ⟨x̄, v⟩ = %.17g, ⟨w, JVP⟩ = %.17g at x = %v, v = %v, w = %v", got, fwd, c.pt.x, c.pt.v, w)
		}
	}
}

// callTaylor returns FTaylor's output coefficients 0…K for the input
// coefficients x, x1, … (as many as the function takes).
func (c *ctxt) callTaylor(fn any, line bool, xs ...[]float64) [][]float64 {
	s := c.s
	k := s.c.Order
	var coefs []reflect.Value // per varied parameter, its coefficients 1…
	extra := s.withTangents(xs[1:]...)
	f := reflect.ValueOf(fn)
	args, primals, _ := s.args(f, toComplex(xs[0]), toComplex(c.pt.inactive), func(i int, next func() reflect.Type) []reflect.Value {
		t := extra(i, next)
		coefs = append(coefs, t...)
		return t
	})
	out := f.Call(args)
	nr := len(s.results)
	ys := make([][]float64, k+1)
	ys[0] = realParts(s.outputs(out[:nr], primals))
	rest := out[nr:]
	per := make([][]complex128, k+1)
	for _, r := range s.results {
		if !holdsFloat(r) {
			continue
		}
		for j := 1; j <= k; j++ {
			per[j] = walk(per[j], rest[0], false, false)
			rest = rest[1:]
		}
	}
	in := len(xs) - 1
	for p := 0; p < len(coefs); p += in {
		for j := 1; j <= k; j++ {
			if j <= in {
				per[j] = walk(per[j], coefs[p+j-1], true, false)
			} else {
				// seed=line: the memory's higher coefficients are zero
				// (gadgen refuses functions that write through it).
				per[j] = append(per[j], make([]complex128, len(walk(nil, coefs[p], true, false)))...)
			}
		}
	}
	for j := 1; j <= k; j++ {
		ys[j] = realParts(per[j])
	}
	return ys
}

// curve returns the curve of lane l (0: the point's v, x2, x3); on a
// line (seed=line), x2 = x3 = 0.
func (c *ctxt) curve(l int, line bool) curve {
	cv := curve{c.pt.v, c.pt.x2, c.pt.x3}
	if l > 0 {
		cv = c.pt.lanes[l-1]
	}
	if line {
		cv.x2, cv.x3 = make([]float64, len(cv.x2)), make([]float64, len(cv.x3))
	}
	return cv
}

// jetInputs returns the input coefficients of FTaylor along cv: x and
// the coefficients 1…K (x and v for seed=line).
func (c *ctxt) jetInputs(cv curve, line bool) [][]float64 {
	xs := [][]float64{c.pt.x, cv.v}
	if line {
		return xs
	}
	xs = append(xs, cv.x2, cv.x3)
	for len(xs) < c.s.c.Order+1 {
		xs = append(xs, make([]float64, len(c.pt.x)))
	}
	return xs[:c.s.c.Order+1]
}

func (c *ctxt) taylor(line bool) {
	fn := c.s.c.Taylor
	if line {
		fn = c.s.c.Line
	}
	cv := c.curve(0, line)
	ys := c.callTaylor(fn, line, c.jetInputs(cv, line)...)
	c.vecs("value", ys[0], c.y0, relValue)
	c.jetOracle(ys, cv)
}

// callLanes returns, lane by lane, the output coefficients 0…K of
// FTaylor with lanes=len(cvs) along the curves cvs, one per lane.
func (c *ctxt) callLanes(fn any, line bool, cvs []curve) [][][]float64 {
	s := c.s
	k, nl := s.c.Order, len(cvs)
	ink := k
	if line {
		ink = 1
	}
	// The coefficients of each varied input in their slots: degree by
	// degree, lane-minor.
	var ds [][]float64
	for j := 1; j <= ink; j++ {
		for l := range nl {
			ds = append(ds, c.jetInputs(cvs[l], line)[j])
		}
	}
	var coefs []reflect.Value // per varied parameter, its ink·L slots
	extra := s.withTangents(ds...)
	f := reflect.ValueOf(fn)
	args, primals, _ := s.args(f, toComplex(c.pt.x), toComplex(c.pt.inactive), func(i int, next func() reflect.Type) []reflect.Value {
		t := extra(i, next)
		coefs = append(coefs, t...)
		return t
	})
	out := f.Call(args)
	nr := len(s.results)
	y0 := realParts(s.outputs(out[:nr], primals))
	rest := out[nr:]
	per := make([][][]complex128, nl) // per[l][j]: lane l, degree j
	for l := range per {
		per[l] = make([][]complex128, k+1)
	}
	for _, r := range s.results {
		if !holdsFloat(r) {
			continue
		}
		for j := 1; j <= k; j++ {
			for l := range nl {
				per[l][j] = walk(per[l][j], rest[0], false, false)
				rest = rest[1:]
			}
		}
	}
	for p := 0; p < len(coefs); p += ink * nl {
		for j := 1; j <= k; j++ {
			for l := range nl {
				if j <= ink {
					per[l][j] = walk(per[l][j], coefs[p+(j-1)*nl+l], true, false)
				} else {
					// seed=line: the memory's higher coefficients are zero.
					per[l][j] = append(per[l][j], make([]complex128, len(walk(nil, coefs[p], true, false)))...)
				}
			}
		}
	}
	ys := make([][][]float64, nl)
	for l := range ys {
		ys[l] = make([][]float64, k+1)
		ys[l][0] = y0
		for j := 1; j <= k; j++ {
			ys[l][j] = realParts(per[l][j])
		}
	}
	return ys
}

// lanes checks FTaylor with lanes: every lane returns F's outputs, and
// the coefficients of FTaylor without lanes along the lane's curve where
// that passed (the same operations on the same numbers: within relLane),
// or else those that the oracle gives.
func (c *ctxt) lanes(line bool) {
	s := c.s
	fn, single, ref := s.c.TaylorLanes, s.c.Taylor, "taylor"
	if line {
		fn, single, ref = s.c.LineLanes, s.c.Line, "line"
	}
	cvs := make([]curve, s.c.Lanes)
	for l := range cvs {
		cvs[l] = c.curve(l, line)
	}
	defer func() { c.lane = 0 }()
	for l, ys := range c.callLanes(fn, line, cvs) {
		c.lane = l + 1
		c.vecs("value", ys[0], c.y0, relValue)
		if single == nil || !s.c.passed[ref] {
			c.jetOracle(ys, cvs[l])
			continue
		}
		want := c.callTaylor(single, line, c.jetInputs(cvs[l], line)...)
		for j := 1; j < len(ys); j++ {
			c.vecs(fmt.Sprintf("lane-%s%d", ref, j), ys[j], want[j], relLane)
		}
	}
}

// jetOracle checks the coefficients ys[1…K] of a jet along the curve cv
// against the complex step, forward mode and differences of the complex
// step (see taylor). A lane's curve other than the point's may be
// ill-conditioned where the point's is not: its checks then stop.
func (c *ctxt) jetOracle(ys [][]float64, cv curve) {
	s := c.s
	k := s.c.Order
	v, x2, x3 := cv.v, cv.x2, cv.x3
	jv, tr0 := c.oracle(c.pt.x, v)
	if c.lane > 1 && !c.usable(jv) {
		return
	}
	if k < 1 {
		return
	}
	c.vecs("taylor1", ys[1], jv, relFirst)
	if s.c.JVP != nil {
		_, dy := c.callJVP(s.c.JVP, c.pt.x, v)
		c.vecs("taylor1-jvp", ys[1], dy, relFirst)
	}
	if k < 2 {
		return
	}
	// g′(t) = J(c(t))·c′(t) along c(t) = x + v·t + x2·t² + x3·t³.
	curve := func(t float64) (ct, dct []float64) {
		ct, dct = make([]float64, len(c.pt.x)), make([]float64, len(c.pt.x))
		for i := range ct {
			ct[i] = c.pt.x[i] + t*(v[i]+t*(x2[i]+t*x3[i]))
			dct[i] = v[i] + t*(2*x2[i]+t*3*x3[i])
		}
		return ct, dct
	}
	// g′ at t = ±h_k, h_k = ε/2^k, k = 0…levels.
	gp := map[float64][]float64{0: jv}
	for k := 0; k <= levels; k++ {
		for _, sign := range []float64{-1, 1} {
			t := sign * eps / float64(int(1)<<k)
			ct, dct := curve(t)
			d, tr := c.oracle(ct, dct)
			if tr != tr0 {
				return // a branch changes within the differences: a kink
			}
			if c.cfg.Largest() > maxIntermediate {
				return // large intermediates near x, as in illConditioned
			}
			gp[t] = d
		}
	}
	n := len(jv)
	g2, g3 := make([]float64, n), make([]float64, n)
	tol2, tol3 := make([]float64, n), make([]float64, n)
	// m is the size of g′ near 0 over all outputs: the scale of the
	// rounding errors of the differences, as for first derivatives.
	// As for first derivatives, derivFloor·|y| is its floor: where y′
	// cancels to nearly nothing (y = c + s·(1 − cos u)³), the digits of
	// both sides are rounding.
	m := derivFloor * normInf(c.y0)
	for _, g := range gp {
		m = max(m, normInf(g))
	}
	for i := range n {
		// Central differences of g′ with the steps h_k, and Richardson's
		// extrapolation of each pair (h_k, h_k−1): a sequence of
		// estimates, from the largest steps down. The three of the
		// smallest steps that agree give the coefficient and the size of
		// its error; if none do, g′ varies faster than the steps resolve
		// (a function that oscillates fast) or rounding swamps them: not
		// checked.
		h := func(k int) float64 { return eps / float64(int(1)<<k) }
		d := func(k int) float64 { return (gp[h(k)][i] - gp[-h(k)][i]) / (2 * h(k)) }
		s := func(k int) float64 { return (gp[h(k)][i] - 2*gp[0][i] + gp[-h(k)][i]) / (h(k) * h(k)) }
		var ok2, ok3 bool
		var err2, err3 float64
		g2[i], err2, ok2 = converged(d, 2, m) // y2 = g″/2
		g3[i], err3, ok3 = converged(s, 6, m) // y3 = g‴/6
		if !ok2 {
			return
		}
		tol2[i] = relSecond*(m+math.Abs(g2[i])) + 4*err2
		tol3[i] = math.Inf(1)
		if ok3 {
			tol3[i] = relThird*(m+math.Abs(g3[i])) + 4*err3
		}
	}
	c.coefs("taylor2", ys[2], g2, tol2)
	if k >= 3 {
		c.coefs("taylor3", ys[3], g3, tol3)
	}
}

// levels is the number of halvings of the step of the differences.
const levels = 10

// converged extrapolates the differences f(k) (of step ε/2^k) in pairs,
// divides by div, and returns the middle estimate of the three
// consecutive ones of the smallest steps that agree within 1e-4 of their
// size (or of scale), and the size of its error.
func converged(f func(int) float64, div, scale float64) (est, err float64, ok bool) {
	e := make([]float64, levels)
	for k := 1; k <= levels; k++ {
		e[k-1] = (4*f(k) - f(k-1)) / 3 / div
	}
	// The smallest steps that agree: larger ones may agree on a wrong
	// value where g′ oscillates faster than they resolve (its average).
	for k := len(e) - 3; k >= 0; k-- {
		d1, d2 := math.Abs(e[k]-e[k+1]), math.Abs(e[k+1]-e[k+2])
		tol := 1e-4 * (math.Abs(e[k+1]) + scale)
		if d1 <= tol && d2 <= tol {
			// The smaller steps that did not agree must still be near
			// it (their rounding error, of the complex step's g′ over
			// steps of 2⁻¹⁰ε, is far below a tenth of scale): far off,
			// the larger steps agree on a value before the differences
			// converge (a function whose higher derivatives are huge
			// near x, s5741p28: −6·10⁷ where the smallest steps, and
			// the Taylor coefficients, say 4·10⁹), and nothing is known.
			for _, ej := range e[k+3:] {
				if math.Abs(ej-e[k+1]) > 0.1*(math.Abs(e[k+1])+scale) {
					return 0, 0, false
				}
			}
			return e[k+1], d1 + d2, true
		}
	}
	return 0, 0, false
}

// coefs checks Taylor coefficients against differences, within the
// absolute tolerances tol.
func (c *ctxt) coefs(kind string, got, want, tol []float64) {
	c.checks++
	for i := range got {
		if math.IsNaN(got[i]) || !(math.Abs(got[i]-want[i]) <= tol[i]) {
			failf("%s: y[%d]%s: got %.17g, want %.17g ± %.3g by differences of the complex step at x = %v along v = %v",
				kind, i, c.inLane(), got[i], want[i], tol[i], c.pt.x, c.dir())
		}
	}
}
