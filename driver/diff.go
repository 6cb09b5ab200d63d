package driver

// This file defines unifiedDiff, the line diff that -check prints: a
// longest-common-subsequence diff (dynamic programming over the lines
// left once the common prefix and suffix are trimmed) in the unified
// format with three lines of context.

import (
	"fmt"
	"strings"
)

// edit is one line of a diff: op ' ' keeps it, '-' deletes it, '+' inserts
// it.
type edit struct {
	op   byte
	text string // with its newline, if it has one
}

// maxDPCells bounds the table of the LCS: beyond it the changed middle is
// shown as one replacement.
const maxDPCells = 1 << 24

// splitLines splits s after each newline.
func splitLines(s []byte) []string {
	if len(s) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(s), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns the edits that turn a into b.
func diffLines(a, b []string) []edit {
	var pre []edit
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		pre = append(pre, edit{' ', a[0]})
		a, b = a[1:], b[1:]
	}
	var suf []edit
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		suf = append(suf, edit{' ', a[len(a)-1]})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	mid := lcsEdits(a, b)
	out := append(pre, mid...)
	for i := len(suf) - 1; i >= 0; i-- {
		out = append(out, suf[i])
	}
	return out
}

// lcsEdits diffs a and b by dynamic programming: l[i][j] is the length of
// the longest common subsequence of a[i:] and b[j:].
func lcsEdits(a, b []string) []edit {
	n, m := len(a), len(b)
	var out []edit
	if n*m > maxDPCells {
		for _, s := range a {
			out = append(out, edit{'-', s})
		}
		for _, s := range b {
			out = append(out, edit{'+', s})
		}
		return out
	}
	l := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return l[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if a[i] == b[j] {
				v = at(i+1, j+1) + 1
			}
			l[i*(m+1)+j] = v
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, edit{' ', a[i]})
			i++
			j++
		case i < n && (j == m || at(i+1, j) >= at(i, j+1)):
			out = append(out, edit{'-', a[i]})
			i++
		default:
			out = append(out, edit{'+', b[j]})
			j++
		}
	}
	return out
}

// context is the number of unchanged lines around each change.
const context = 3

// unifiedDiff returns the unified diff from old (named oldName) to new
// (named newName), or "" when they are equal.
func unifiedDiff(oldName, newName string, old, new []byte) string {
	edits := diffLines(splitLines(old), splitLines(new))
	// oldLine[k], newLine[k]: lines of old and new before edit k.
	oldLine := make([]int, len(edits)+1)
	newLine := make([]int, len(edits)+1)
	for k, e := range edits {
		oldLine[k+1], newLine[k+1] = oldLine[k], newLine[k]
		if e.op != '+' {
			oldLine[k+1]++
		}
		if e.op != '-' {
			newLine[k+1]++
		}
	}
	var sb strings.Builder
	n := len(edits)
	for k := 0; k < n; {
		for k < n && edits[k].op == ' ' {
			k++
		}
		if k == n {
			break
		}
		start := max(0, k-context)
		end := k
		for {
			for end < n && edits[end].op != ' ' {
				end++
			}
			next := end
			for next < n && edits[next].op == ' ' {
				next++
			}
			if next < n && next-end <= 2*context {
				end = next
				continue
			}
			end = min(n, end+context)
			break
		}
		if sb.Len() == 0 {
			fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n",
			hunkRange(oldLine[start], oldLine[end]-oldLine[start]),
			hunkRange(newLine[start], newLine[end]-newLine[start]))
		for _, e := range edits[start:end] {
			sb.WriteByte(e.op)
			sb.WriteString(e.text)
			if !strings.HasSuffix(e.text, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		k = end
	}
	return sb.String()
}

// hunkRange formats the range of count lines after line before.
func hunkRange(before, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, count)
}
