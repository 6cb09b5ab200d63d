// Gadgen writes the derivatives of Go functions: it is a source-to-source
// automatic differentiation compiler, run by go generate.
//
// Usage:
//
//	gadgen [flags] [packages]
//
// Annotate a function with a directive in its doc comment and add a
// go:generate line to the package:
//
//	//go:generate gadgen
//
//	// Rosenbrock returns the Rosenbrock function of x.
//	//
//	//gad:jvp
//	func Rosenbrock(x []float64) float64 { ... }
//
// "go generate" then writes rosenbrock_grad.go beside rosenbrock.go, with
//
//	func RosenbrockJVP(x, dx []float64) (float64, float64)
//
// which returns the function's value and its directional derivative along
// dx (forward mode: a Jacobian-vector product).
//
// With no packages, gadgen processes the package in the current directory,
// as go generate runs it; package patterns such as ./... process several.
//
// # Directives
//
// A directive is a line comment without a space after the slashes:
//
//	//gad:MODE [key=value ...]
//
// in the doc comment of a function or method, or, to differentiate a
// function of another package (modelled on //go:linkname),
//
//	//gad:MODE LocalName importpath.Func [key=value ...]
//	//gad:MODE LocalName importpath.Type.Method [key=value ...]
//
// anywhere at the top level of a file. The modes, with what they generate
// for func F(x, y float64) float64 and, for the second-order helpers,
// which take one varied parameter (a []float64, a tensor or a struct of
// tensors), for func G(x []float64) float64; a varied slice, struct or
// tensor parameter p is followed by its shadow of the same type (dp or
// pBar):
//
//	jvp        forward mode: func FJVP(x, dx, y, dy float64) (float64,
//	           float64) returns the results, then their tangents (J·v).
//	grad       reverse mode, F with one float result:
//	           func FGrad(x, y float64) (f, xBar, yBar float64) returns the
//	           value and the partials of varied scalars; the gradient in a
//	           slice, struct or tensor parameter is added into its shadow
//	           (func GGrad(x, xBar []float64) float64; a nil tensor field
//	           of a shadow struct is allocated).
//	vjp        reverse mode with a seed: func FVJP(x, y, seed float64) (f,
//	           xBar, yBar float64) returns seed·∇F, a vector-Jacobian
//	           product; the seed of a slice result is a slice.
//	taylor     Taylor mode, order=K required: func FTaylor(x, x1, …, xK, y,
//	           y1, …, yK float64) (f, f1, …, fK float64) carries K Taylor
//	           coefficients of each input to each result.
//	hvp        a Hessian-vector product by forward over reverse mode:
//	           func GHVP(x, v, hv []float64) float64 stores ∇²G·v in hv
//	           and returns G(x).
//	hessian    the dense Hessian: func GHessian(x, h []float64) float64
//	           stores it in h, n×n row-major.
//	hessdiag   the Hessian's diagonal by Taylor jets:
//	           func GHessDiag(x, d []float64) float64 stores ∂²G/∂xᵢ² in d.
//	laplacian  the Laplacian Σᵢ ∂²G/∂xᵢ² by collapsed Taylor mode:
//	           func GLaplacian(x []float64) (f, lap float64).
//	rule       not a derivative but a rule: //gad:rule x="expr" … on a
//	           function gives its partial derivatives as Go expressions (or
//	           jvp=F vjp=G for a tensor function), which every mode then
//	           uses instead of differentiating its body.
//	checkpoint not a derivative: //gad:checkpoint on a function makes
//	           reverse mode keep its calls as calls and reverse them
//	           jointly: what a call reads is saved before it and the
//	           callee recomputed in the reverse sweep, instead of its
//	           values recorded on the tape (time for memory).
//
// Options:
//
//	wrt=a,b   vary the parameters a and b (a method's receiver may be
//	          named); by default every parameter whose type holds
//	          floating-point numbers is varied, except a receiver.
//	opt=0     generate this derivative, and the derivatives of callees it
//	          needs (named with an O0 suffix: magJVPO0), without
//	          optimization, as -O0 does for every derivative. With the
//	          cross-package form it names an unoptimized copy of a
//	          derivative of the same package, for ablation benchmarks:
//	          //gad:grad LossGradO0 example.com/p.Loss opt=0
//	test=true, test=N, test=NAME
//	          (jvp, grad; vjp with NAME) also write foo_grad_test.go with a
//	          test of the derivative against central finite differences
//	          (package gadtest) and a dot-product test when the function
//	          has both; N is the length of slice parameters at the points
//	          checked (default 4), NAME a function returning example
//	          arguments (for tensors and structs).
//	gonum=true
//	          (grad) the gradient in gonum/optimize's shape,
//	          func(grad, x []float64), overwriting grad.
//	value=false
//	          (grad, vjp) leave F's own results out of the derivative;
//	          what only they needed is not computed.
//	checkpoint=C
//	          (grad, vjp) binomial checkpointing (Revolve) of F's loops
//	          whose steps are calls and arithmetic
//	          (for t := 0; t < n; t++ { e += s.step(dt) }):
//	          the gradient keeps at most C copies of the state the steps
//	          write, instead of one per step, and runs each step at most
//	          r+1 times, r the least with binomial(C+r, C) ≥ n (3 for
//	          C = 100, n = 10⁵). The generated file imports package
//	          github.com/gadgen/gadgen/revolve. gadgen warns when no loop
//	          of F has that shape.
//	order=K   (taylor, required) the degree of the Taylor polynomials,
//	          1 ≤ K ≤ 12.
//	seed=line (taylor) the inputs move on a line x + t·x1 (only the first
//	          coefficient is a parameter); seed=jet, the default, takes
//	          every input coefficient.
//	lanes=L   (taylor; hvp of a tensor or a struct of tensors) L directions
//	          per call, 1 ≤ L ≤ 16, sharing the primal: L jets or L
//	          Hessian-vector products, each direction's parameters and
//	          results suffixed _1 … _L.
//	lanes=stacked (taylor and hvp of tensors) any number of directions per
//	          call, stacked in one tensor: FHVP(x, vs) (f, hvs) with vs and
//	          hvs [L, …] (x's shape after the first axis); FTaylor(x, x1, …)
//	          with each input coefficient [L, …], returning each float
//	          coefficient as a tensor [L]; each product by a weight matrix
//	          is one GEMM over all L. gadgen refuses it, with the reason,
//	          where F computes what stacked directions cannot carry
//	          (docs/taylor.md).
//
// gadgen's docs (docs/directives.md, docs/reverse-mode.md, docs/taylor.md and
// docs/tensors.md) show each mode's signatures for scalars, slices,
// structs and tensors with examples.
//
// # Generated names and files
//
// The derivative of F is FJVP; of the method T.M, the method T.MJVP; the
// cross-package form generates LocalName. Functions the differentiated
// code calls get unexported derivatives of their own (distJVP for dist,
// vecNormJVP for the method Vec.Norm, geomDistJVP for geom.Dist), generated
// once per package.
//
// The functions of foo.go go to foo_grad.go, those of foo_test.go to
// foo_grad_test.go. A generated file starts with
//
//	// Code generated by gadgen. DO NOT EDIT.
//
// gadgen writes a file only when its contents change, never overwrites a
// file without that line, and deletes the generated files whose source no
// longer has directives. When a function cannot be differentiated, its
// file is left as it was and gadgen reports why.
//
// gadgen works even when the package does not compile because its code
// already calls generated functions whose signatures changed: it
// type-checks the package against the new signatures before generating.
//
// # Flags
//
//	-check
//		Write nothing. Print a unified diff of each generated file that
//		would be created, changed or deleted, and exit with status 1 if
//		there is one (for CI: are the generated files up to date?).
//	-v
//		List the files written, unchanged and deleted. Print the stacks
//		of internal errors.
//	-dump=F
//		Print the IR of function F ("F", or "T.M" for a method) after
//		lowering and after each stage of differentiation and
//		simplification, with the analyses (activity; in reverse mode the
//		choice at each call site, calls, and the plan of the sweeps,
//		plan: the loops reversed by their index, the memory restored,
//		and per block what is recorded, read back or saved before a
//		call), to standard output.
//	-explain
//		Print to standard output where each tensor rewrite of package
//		simplify fired: the position (of the rewritten operation, or of
//		the directive for operations the differentiation made), the
//		rule's name and the generated function.
//	-O0
//		Do not optimize: before and after differentiation, run only the
//		passes later stages need (dead-code elimination), not constant
//		folding, CSE, loop-invariant code motion, inlining or the
//		algebraic simplification of derivatives. For ablation and for
//		debugging gadgen; the numbers agree with the optimized
//		derivatives' to rounding.
//	-reversal=auto|joint|split|inline
//		How reverse mode differentiates calls, for testing gadgen. auto
//		(the default) chooses per call site by a cost model between
//		inlining the callee and joint reversal (the callee's generated
//		reverse recomputes it), and falls back on the other where one
//		cannot reverse the function; joint keeps every call, reversing
//		in two halves (split reversal: the callee's forward half returns
//		its reverse half as a closure) the calls that cannot be
//		recomputed; split keeps every call and reverses it in two halves
//		where it can; inline inlines every call that can be. The numbers
//		agree to rounding.
//	-C dir
//		Run in directory dir.
//	-tags list
//		Build tags, as for go build. gadgen always adds noasm and
//		purego, which select pure-Go variants of assembly kernels
//		(gonum's floats), since it cannot differentiate assembly.
//	-version
//		Print gadgen's version.
//
// # Diagnostics
//
// Problems are reported as
//
//	file:line:col: gadgen: cannot differentiate F: construct: why
//
// all of them, sorted, on standard error. gadgen does not differentiate
// goroutines, defer, channels, select, maps, range loops over strings,
// maps and functions, type assertions, function values it cannot resolve
// when it generates code, unsafe, package reflect, goto, complex numbers,
// dynamic interface calls with floating-point arguments or results, or
// generic functions.
//
// A comment that would be a directive but for a space after the slashes
// ("// gad:grad") gets a warning, which does not change the exit status:
//
//	file:line:col: gadgen: warning: "// gad:grad" is not a directive and is ignored: …
//
// A run that succeeds ends with one line on standard error, such as
//
//	gadgen: 2 packages, 5 derivatives: 1 file written, 2 unchanged
//
// counting the derivatives the directives ask for (not the unexported
// derivatives of the functions they call).
//
// # Exit status
//
// 0 on success (with -check: every file is up to date); 1 when there were
// diagnostics or internal errors (with -check: some file would change); 2
// for a bad command line.
package main
