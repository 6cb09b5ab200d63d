// Package diag defines gadgen's diagnostics: positioned reports of user
// problems (unsupported Go, wrong directives, stale files), collected and
// printed all together.
package diag

import (
	"fmt"
	"go/token"
	"sort"
)

// Diagnostic is one problem in the user's code.
type Diagnostic struct {
	Pos token.Position
	// Func names the function that cannot be differentiated ("F",
	// "T.Method"); "" for problems that are not about one function
	// (a malformed directive, a file gadgen must not overwrite).
	Func string
	// Construct names the Go construct at fault ("goroutine", "map",
	// "directive"); may be "".
	Construct string
	// Msg says why.
	Msg string
	// Warning: a likely mistake that does not stop gadgen (a directive
	// written "// gad:grad", which it ignores).
	Warning bool
}

// String formats d as
//
//	file:line:col: gadgen: cannot differentiate F: construct: why
//
// or, without a function, file:line:col: gadgen: construct: why; a
// warning reads file:line:col: gadgen: warning: why.
func (d Diagnostic) String() string {
	s := ""
	if d.Pos.IsValid() {
		s = d.Pos.String() + ": "
	}
	s += "gadgen: "
	if d.Warning {
		s += "warning: "
	}
	if d.Func != "" {
		s += "cannot differentiate " + d.Func + ": "
	}
	if d.Construct != "" {
		s += d.Construct + ": "
	}
	return s + d.Msg
}

func (d Diagnostic) Error() string { return d.String() }

// List collects diagnostics.
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(pos token.Position, fn, construct, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Func: fn, Construct: construct, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders l by file, line and column, then message, and removes exact
// duplicates.
func (l List) Sort() List {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return l[i].String() < l[j].String()
	})
	out := l[:0]
	for i, d := range l {
		if i > 0 && d == l[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}
