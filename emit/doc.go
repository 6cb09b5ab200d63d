// Package emit turns gadgen IR functions back into readable Go source.
//
// It is the package of gadgen that knows about naming and renders every
// generated file, with jennifer (the Go code generator); the driver only
// plans the files and writes them. [Render] takes a [File] — a package
// clause, a list of [ir.Func]s and the helper functions they call
// ([HelpersOf]: gadDigamma of package templates, the alias check gadApart)
// — and returns gofmt'ed, deterministic source whose first line is the
// generated-code marker. [RenderTests] takes a [TestFile], the tests that
// the option test= asks for, described as data (which functions, their
// parameters, the generated functions' arguments), and writes them: a
// check of each derivative against central finite differences with
// package gadtest, and dot-product tests (tests.go, tests_tensor.go).
//
// # What the output looks like
//
// The emitter aims for code a person could have written, because people
// review it:
//
//   - Structured control flow. Loops, if/else chains, break and continue
//     (labeled when they leave an inner loop) are recovered from the CFG
//     with the dominator-tree method of N. Ramsey, "Beyond Relooper:
//     Recursive Translation of Unstructured Control Flow to Structured
//     Control Flow" (ICFP 2022), adapted to Go: a Go for body loops back
//     when it falls off its end, so a loop's exit block is emitted after
//     the for statement and reached with break (structure.go).
//     Short-circuit conditions (&&, ||, and booleans computed with them)
//     are folded first (fold.go). The statement tree is then tidied
//     (simplify.go): for cond {}, three-clause loops with i++, guard
//     clauses instead of else after return, and switch statements out of
//     else-if chains that compare one value with constants (switch.go).
//     Loops arrive tested at the top: simplify's required loopform pass
//     has already turned go/ssa's shapes of range loops (over a slice,
//     over an int) into that form, for the emitter as for reverse mode.
//   - Expressions, not three-address code. A value with one use is
//     rendered inside its user when Go's evaluation rules make the move
//     invisible (analyze.go); other values become variables named after
//     the source variable they came from. Lengths and small index
//     expressions the source did not name (len(x), c*d, len(tape)-1) are
//     written again at each use, as a person writes them, rather than
//     held in variables; a temporary never takes a source variable's
//     name. Reverse mode's alias checks are calls of one helper per
//     package, gadApart (apart.go). A boolean computed with
//     branches (t := a && b) and a switch's tag are written where they
//     are read when that is the next statement and nothing else reads
//     them (boolfold.go).
//   - Variables, not φ-nodes. φ-related values whose live ranges do not
//     interfere share one variable (copy coalescing, vars.go), so a
//     loop-carried s is one variable s; the remaining φ copies are
//     assignments on the CFG edges, parallel (a, b = b, a+b) only when
//     they must be (copies.go). Declarations go to the innermost Go scope
//     enclosing all occurrences: := at the definition when it comes
//     first, otherwise var just before (scope.go).
//   - Locals, not memory. An allocation that go/ssa kept in memory (a
//     struct or array local, a value parameter whose fields are used)
//     becomes a plain variable; field and element addresses become
//     selectors and index expressions; x[i] = x[i] + v becomes x[i] += v.
//     Memory that is only filled and then read whole — go/ssa's shape of
//     T{X: a}, [2]T{a, b} and []T{a, b}, and the forward transformer's
//     make([]T, 2) followed by two element stores — becomes a composite
//     literal (literals.go).
//   - Names for constants. A constant of a defined type is written as the
//     constant its package declares for that value, when there is exactly
//     one and the file may refer to it: case Tanh rather than case 0.
//
// An irreducible CFG — a loop with two entries, which reverse mode makes
// from a return or a labeled break that leaves nested loops — is first
// made reducible by node splitting (split.go): the second entry gets a
// copy of what it runs before the loop's header. When the CFG still
// cannot be structured — it needs a jump Go cannot express even after
// duplicating a tail (as a switch with fallthrough does, whose reverse is
// then written once per case) — the function is emitted in a goto form
// instead (gotoform.go): every variable declared at the top, a label per
// jump target. Code that came from structured Go does not need it.
//
// # Pipeline inside the package
//
// For each function (func.go): composite literals (literals.go, on a
// private copy of the function), analysis (analyze.go: live values,
// private locals, what is inlined), variables (vars.go: liveness,
// coalescing, names), short-circuit folding (fold.go), structuring
// (structure.go) into a statement tree whose expressions are still IR
// values (stmt.go), clean-ups (simplify.go, switch.go, boolfold.go),
// declaration placement (scope.go), and rendering with jennifer
// (render.go, expr.go, types.go). Render (emit.go) wraps the functions
// into a file and manages imports and the names they reserve, and appends
// the helpers (helpers.go).
//
// # Non-goals
//
// The emitter does not optimize: it renders what the IR says and moves a
// computation only where that cannot be observed. It does not recover
// switch statements without a tag (they stay else-if chains) or range
// statements over slices (they come out as three-clause loops).
// Conditions are negated only with ! — never by flipping a comparison,
// which NaNs forbid — except that !(a == b) is written a != b, which
// holds for NaNs too.
package emit
