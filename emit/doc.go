// Package emit turns gadgen IR functions back into readable Go source.
//
// It is the only package of gadgen that knows about jennifer (the Go code
// generator it builds source with) and about naming. [Render] takes a
// [File] — a package clause and a list of [ir.Func]s — and returns gofmt'ed,
// deterministic source whose first line is the generated-code marker.
//
// # What the output looks like
//
// The emitter aims for code a person could have written:
//
//   - Structured control flow. Loops, if/else, break and continue are
//     recovered from the CFG with the dominator-tree method of N. Ramsey,
//     "Beyond Relooper: Recursive Translation of Unstructured Control Flow
//     to Structured Control Flow" (ICFP 2022), adapted to Go: a Go for body
//     loops back when it falls off its end, so a loop's follow block is
//     emitted after the for statement and reached with break. Short-circuit
//     conditions (&&, ||) are folded before structuring; for cond {},
//     three-clause loops with i++ and labeled break/continue are recognized.
//   - Expressions, not three-address code. A value with one use is rendered
//     inside its user when moving it there keeps the meaning (see
//     inline.go for the rules about loads and calls); other values become
//     variables named after the source variable they came from.
//   - Variables, not φ-nodes. φ-related values whose live ranges do not
//     interfere share one variable (copy coalescing), so a loop-carried
//     s is one variable s; the remaining φ copies are assignments on the
//     CFG edges, parallel (a, b = b, a+b) only when they must be.
//     Declarations are placed in the innermost Go scope that encloses all
//     occurrences: := at the definition when it is the first occurrence,
//     otherwise a var declaration hoisted just before.
//   - Locals, not memory. An allocation that go/ssa kept in memory (a
//     struct or array local, a named result) becomes a plain variable;
//     field and element addresses become selectors and index expressions.
//
// When the CFG cannot be structured (it is irreducible, or needs a forward
// jump Go cannot express without goto), the function is emitted in a goto
// form instead: every variable declared at the top, a label per jump target.
// Code that came from structured Go never needs it.
//
// # Pipeline inside the package
//
// For each function: analysis (analyze.go: dead values, memory, which
// values are inlined), variables (vars.go: liveness, coalescing, names),
// short-circuit folding (fold.go), structuring (structure.go) into a small
// statement tree (stmt.go), clean-ups of that tree (simplify.go),
// declaration placement (scope.go), and rendering to jennifer (render.go,
// expr.go, types.go). gotoform.go is the fallback.
//
// # Non-goals
//
// The emitter does not optimize: it renders what the IR says, and only
// moves a computation where Go's evaluation rules make the move invisible.
// It does not recover switch statements (go/ssa lowers them to if chains,
// which come out as else-if chains), range loops, or closures (the IR has
// none).
package emit
