// Package frontend is the first stage of gadgen: it loads the user's
// packages, finds the //gad: directives in them, builds go/ssa for the
// functions to differentiate and lowers each of those functions into
// gadgen's IR (package ir).
//
// # Loading
//
// [Load] runs golang.org/x/tools/go/packages with syntax and type
// information for every package of the import graph, test variants
// included, so that callees in other packages and modules have bodies that
// gadgen can differentiate. Bodies of standard-library functions are
// dropped while parsing unless [Config.StdBodies] is set: those functions
// then behave like assembly functions (a derivative needs a rule, see
// package templates), and loading is about twice as fast. The type errors
// this causes inside the standard library ("imported and not used") are
// ignored. Packages are read with the build tags of [PureGoTags]
// ("noasm", "purego") added to the user's, so that gonum's floats and
// other code built on assembly kernels have Go bodies to differentiate.
//
// # Directives
//
// A directive is a line comment "//gad:MODE [key=value ...]" in the doc
// comment of a function or method, or the cross-package form
//
//	//gad:MODE LocalName importpath.Func [key=value ...]
//	//gad:MODE LocalName importpath.Type.Method [key=value ...]
//
// anywhere at the top level of a file, modelled on //go:linkname: it asks
// for the derivative of a function of another package, generated into the
// directive's package under LocalName. [Program.Directives] parses and
// checks them against the modes the driver knows ([ModeSpec]).
//
// # Lowering
//
// [Program.Lower] turns the go/ssa form of a function into an [ir.Func]: one
// IR value per SSA value, the blocks in go/ssa's order. It reports, as
// positioned diagnostics, every construct that gadgen cannot differentiate:
// goroutines, defer, channels, select, maps, range over strings, maps and
// functions, type assertions, function values it cannot know statically,
// unsafe, package reflect, goto, complex numbers and dynamic interface
// calls on values holding floats. See lower.go for the shapes of the IR it
// produces.
//
// The IR has no function values: a call of a function literal, and a call
// that passes known functions (simpson(spring, 0, 1, 64)), become calls of
// specializations (simpsonSpring), functions that no package declares and
// that Lower lowers like any other; the variables a literal captures are
// their first parameters (see closure.go). [Program.IsSpecialization] and
// [Program.Describe] tell the driver about them.
//
// [CheckAccess] finds what a function generated into one package cannot
// name in others: unexported identifiers, and packages it may not import
// ([Importable]).
//
// # Main types
//
//   - [Config]: what to load (directory, overlay, build flags).
//   - [Program]: the loaded packages, their files, and the SSA program,
//     built lazily when the first function is lowered.
//   - [Directive]: one parsed and resolved //gad: directive.
//
// # Non-goals
//
// The frontend does not name generated functions, decide where they go or
// write files (package driver does), and it does not differentiate
// (packages ssaad/...). Generic functions are not supported yet.
package frontend
