package difftest

// This file defines the summary of a run: counts per mode, refusals by
// construct, failures by kind, and the constructs of the programs.

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"
)

// Summary counts the outcomes of a run.
type Summary struct {
	Programs int
	Modes    map[string]*ModeCount
	// Refusals counts refusals by construct and mode, the names of the
	// generator's functions and types made generic (see genericName).
	Refusals map[string]map[string]int
	// Reasons counts refusals by construct and gadgen's message, made
	// generic the same way, and mode.
	Reasons map[string]map[string]int
	// Features counts, for each construct of the generator, the programs
	// using it and their outcomes by mode.
	Features map[string]map[string]*ModeCount
	Failures []Outcome // Fail and Tester outcomes
	Refused  []Outcome // Refused outcomes
	// Unexpected are the refusals of tensor programs whose every
	// construct TensorSupported lists for the mode.
	Unexpected []Outcome
	// Skips counts the reasons of the skipped outcomes.
	Skips map[string]int
	// Routes counts the ways of computing the HVPs and the Hessians
	// written (Outcome.Route), by mode, the names of the programs'
	// functions left out.
	Routes map[string]map[string]int
	// ModeList, if set, lists the modes of the tables (default: the
	// scalar tester's), and Base is the mode every program has (default
	// "twin"), whose entries count the programs using a construct.
	ModeList []string
	Base     string
}

func (s *Summary) modes() ([]string, []string, string) {
	if s.ModeList != nil {
		return s.ModeList, s.ModeList, s.Base
	}
	return allModes, Modes, "twin"
}

// ModeCount counts the outcomes of one mode.
type ModeCount struct {
	Entries, Pass, Refused, Skipped, Fail, Tester int
	Checks                                        int
}

// Checked returns the number of entries checked without failure.
func (c *ModeCount) Checked() int { return c.Pass }

// RefusalRate returns the percentage of the entries that gadgen refused.
func (c *ModeCount) RefusalRate() float64 {
	if c.Entries == 0 {
		return 0
	}
	return 100 * float64(c.Refused) / float64(c.Entries)
}

// Add counts outcomes.
func (s *Summary) Add(outs []Outcome) {
	if s.Modes == nil {
		s.Modes = map[string]*ModeCount{}
		s.Refusals = map[string]map[string]int{}
		s.Reasons = map[string]map[string]int{}
		s.Features = map[string]map[string]*ModeCount{}
		s.Skips = map[string]int{}
		s.Routes = map[string]map[string]int{}
	}
	progs := map[*Program]bool{}
	for _, o := range outs {
		progs[o.Program] = true
		s.count(s.Modes, o)
		if o.Status == Refused {
			kind := genericName(o.Kind)
			if s.Refusals[kind] == nil {
				s.Refusals[kind] = map[string]int{}
			}
			s.Refusals[kind][o.Mode]++
			reason := kind
			if o.Kind != lostFile && o.Detail != "" {
				reason += ": " + genericName(o.Detail)
			}
			if s.Reasons[reason] == nil {
				s.Reasons[reason] = map[string]int{}
			}
			s.Reasons[reason][o.Mode]++
			s.Refused = append(s.Refused, o)
		}
		if o.Status == Fail || o.Status == Tester {
			s.Failures = append(s.Failures, o)
		}
		if o.Route != "" {
			if s.Routes[o.Mode] == nil {
				s.Routes[o.Mode] = map[string]int{}
			}
			s.Routes[o.Mode][genericNamesRE.ReplaceAllString(o.Route, "F")]++
		}
		if o.Status == Skipped {
			why, _, _ := strings.Cut(o.Kind, ":")
			s.Skips[why]++
		}
		for _, f := range o.Program.Features {
			if s.Features[f] == nil {
				s.Features[f] = map[string]*ModeCount{}
			}
			s.count(s.Features[f], o)
		}
	}
	s.Programs += len(progs)
}

// genericNamesRE matches the names of the generator's functions ("F12",
// "h3_7", "dot4Grad").
var genericNamesRE = regexp.MustCompile(`\b[A-Za-z]+[0-9]+(_[0-9]+)?[A-Za-z]*\b`)

// Names in gadgen's diagnostics that vary from program to program: the
// mode packages' qualifiers (rev.newState10), the numbered names of the
// generator's functions and types, and positions.
var (
	modePkgRE  = regexp.MustCompile(`\b(?:jvp|rev|taylor|line|tlanes|llanes|second|twin)\.`)
	numberedRE = regexp.MustCompile(`\b[A-Za-z_]*[A-Za-z][0-9]+(?:_[0-9]+)?\b`)
	goTypeRE   = regexp.MustCompile(`^(?:float|int|uint|complex)[0-9]+$`)
	positionRE = regexp.MustCompile(`\S+\.go:[0-9]+(?::[0-9]+)?`)
)

// genericName returns s, a construct or a message of gadgen, with the
// names that vary from program to program made generic
// ("call of rev.state7.step7" → "call of stateN.stepN"), so that the
// refusals of one reason count together.
func genericName(s string) string {
	s = positionRE.ReplaceAllString(s, "FILE")
	s = modePkgRE.ReplaceAllString(s, "")
	return numberedRE.ReplaceAllStringFunc(s, func(w string) string {
		if goTypeRE.MatchString(w) {
			return w
		}
		return strings.TrimRight(strings.Split(w, "_")[0], "0123456789") + "N"
	})
}

func (s *Summary) count(m map[string]*ModeCount, o Outcome) {
	c := m[o.Mode]
	if c == nil {
		c = &ModeCount{}
		m[o.Mode] = c
	}
	c.Entries++
	c.Checks += o.Checks
	switch o.Status {
	case Pass:
		c.Pass++
	case Refused:
		c.Refused++
	case Skipped:
		c.Skipped++
	case Fail:
		c.Fail++
	case Tester:
		c.Tester++
	}
}

// allModes lists the modes of the summary tables.
var allModes = append([]string{"twin"}, Modes...)

// Write prints the summary tables.
func (s *Summary) Write(w io.Writer) {
	all, modes, base := s.modes()
	fmt.Fprintf(w, "programs: %d\n\n", s.Programs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tentries\tchecked\tchecks\trefused\trefused %\tskipped\tFAIL\ttester\t")
	for _, m := range all {
		if c := s.Modes[m]; c != nil {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f\t%d\t%d\t%d\t\n", m, c.Entries, c.Pass, c.Checks, c.Refused, c.RefusalRate(), c.Skipped, c.Fail, c.Tester)
		}
	}
	tw.Flush()

	if len(s.Refusals) > 0 {
		fmt.Fprintf(w, "\nrefusals by construct (gadgen's diagnostic) and mode:\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "construct\t"+strings.Join(modes, "\t")+"\t")
		for _, k := range sortedKeys(s.Refusals) {
			row := k
			for _, m := range modes {
				row += fmt.Sprintf("\t%d", s.Refusals[k][m])
			}
			fmt.Fprintln(tw, row+"\t")
		}
		tw.Flush()
	}

	if len(s.Reasons) > 0 {
		fmt.Fprintf(w, "\nrefusals by reason (construct: gadgen's message) and mode:\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(modes, "\t")+"\treason")
		for _, k := range sortedKeys(s.Reasons) {
			row := ""
			for _, m := range modes {
				row += fmt.Sprintf("%d\t", s.Reasons[k][m])
			}
			fmt.Fprintln(tw, row+k)
		}
		tw.Flush()
	}

	if len(s.Unexpected) > 0 {
		fmt.Fprintf(w, "\nREFUSED though supported (every construct of the program is, in its mode, by the README):\n")
		for _, o := range s.Unexpected {
			fmt.Fprintf(w, "  %s %s: %s\n", o.Program.Name, o.Mode, o.Kind)
		}
	}

	if len(s.Routes) > 0 {
		fmt.Fprintf(w, "\nHVPs and Hessians written, by how gadgen computes them:\n")
		for _, m := range []string{ModeHVP, ModeHessian} {
			for _, k := range sortedKeys(s.Routes[m]) {
				fmt.Fprintf(w, "  %-10s %-60s %d\n", m, k, s.Routes[m][k])
			}
		}
	}

	if len(s.Skips) > 0 {
		fmt.Fprintf(w, "\nskipped (all modes):\n")
		for _, k := range sortedKeys(s.Skips) {
			fmt.Fprintf(w, "  %-60s %d\n", k, s.Skips[k])
		}
	}

	fmt.Fprintf(w, "\nconstructs of the generator: programs using it, checked/refused/failed by mode:\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "construct\tprograms\t"+strings.Join(modes, "\t")+"\t")
	for _, f := range sortedKeys(s.Features) {
		row := f + fmt.Sprintf("\t%d", s.Features[f][base].entriesOrZero())
		for _, m := range modes {
			c := s.Features[f][m]
			if c == nil {
				row += "\t-"
				continue
			}
			row += fmt.Sprintf("\t%d/%d/%d", c.Pass, c.Refused, c.Fail)
		}
		fmt.Fprintln(tw, row+"\t")
	}
	tw.Flush()

	if len(s.Failures) > 0 {
		fmt.Fprintf(w, "\nfailures:\n")
		kinds := map[string]int{}
		for _, o := range s.Failures {
			kinds[o.Mode+" "+Category(o)]++
		}
		for _, k := range sortedKeys(kinds) {
			fmt.Fprintf(w, "  %-24s %d\n", k, kinds[k])
		}
	}
}

func (c *ModeCount) entriesOrZero() int {
	if c == nil {
		return 0
	}
	return c.Entries
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
