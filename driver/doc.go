// Package driver is gadgen's command line: it runs the stages of the
// pipeline (load → directives → lower → differentiate → simplify → emit →
// write) over the packages the user names, and owns everything about
// files: which file a generated function goes in, the names of generated
// functions, stale and orphaned generated files, and the -check mode.
//
// # Two loads
//
// A package that already has generated files may not type-check: user code
// may call a generated function whose signature the user has just changed
// by editing the annotated function. So the driver loads twice (see
// driver.go):
//
//  1. with every gadgen-generated file of the package directories replaced,
//     through the go/packages overlay, by its package clause alone; type
//     errors are tolerated. This phase reads the directives and computes
//     the signature of each generated function (ssaad.Mode.Signature).
//  2. with each output file replaced by stubs of the functions it will
//     hold, with their new signatures, so that the package type-checks;
//     then SSA is built and the functions are lowered and differentiated.
//     Remaining type errors are reported and stop the run.
//
// # Naming
//
// A directive in the doc comment of F generates F+Suffix ("FJVP"); on a
// method T.M of the package, the method M+Suffix of T; the cross-package
// form generates its LocalName. A callee whose derivative a transformer
// asks for (ssaad.Env.Derivative) gets an unexported function, the
// receiver of a method as its first parameter: vecNormJVP for Vec.Norm,
// distJVP for dist, geomDistJVP for geom.Dist of another package. When the
// callee is itself annotated with the same activity, the directive's
// function is called instead. An activity other than "every parameter
// holding floats" adds the varied parameters to the name (distJVPWrtA).
// Each derivative is generated once per package, mode, callee and
// activity, in the file of the directive that first needed it (non-test
// files first, then test files, each in name order; directives in source
// order).
//
// Generated code cannot name the unexported identifiers of other
// packages. A call that keeps calling an unexported function of another
// package (a call with no varied argument) calls a copy of its body
// generated beside it (geomWeight for geom.weight); so does a call of a
// specialization of a function for the function values passed to it,
// which no package declares (simpsonSpring, see the frontend's
// closure.go). Any other reference to an unexported identifier of another
// package is reported (frontend.CheckAccess). Specializations are
// identified across package variants by what they specialize
// (frontend.Program.SpecializationKey), and the doc comment of each
// function generated for one says what it is. The helper functions that
// generated code calls (gadDigamma of package templates, gadApart) are
// declared once in each package that needs them: the driver picks the
// file, the first written that calls one, and emit renders them there
// (emit.File.Helpers).
//
// Once every function is generated, the driver removes the alias checks
// of the functions only generated code calls (a callee's reverse, a split
// function) that all their calls make redundant, seeing every call at
// once (simplify.DropApartChecks; dropApartChecks in output.go).
//
// # Files
//
// foo.go's functions go to foo_grad.go, foo_test.go's to
// foo_grad_test.go. Files are written only when their bytes change, through
// a temporary file and a rename. A file is not written when one of its
// functions failed, and a file that exists without gadgen's header is never
// overwritten. Generated *_grad.go files whose source no longer has
// directives are deleted. The tests that the option test= asks for go to
// foo_grad_test.go beside foo.go's foo_grad.go: the driver checks the
// directives and plans the tests (testgen.go), emit writes them
// (emit.RenderTests).
//
// # Main types
//
//   - [Config]: one run's settings, built by [Main] from the command line.
//   - [Run]: runs gadgen and returns the exit status.
//
// # Non-goals
//
// The driver does not parse Go or know SSA (package frontend does), does
// not differentiate (the ssaad.Mode implementations do) and does not
// print Go: package emit renders every generated file, the derivatives,
// their helpers and the tests.
package driver
