package difftest

// This file defines runs of many generated programs (Run), the cases
// kept in testdata (WriteCase, LoadCases), and the switches that keep
// constructs with known bugs out of a mode (Exclude).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// RunConfig is a run of generated programs.
type RunConfig struct {
	Config
	// N programs of seed Seed from index First, BatchSize to a batch
	// (default 100).
	N         int
	First     int
	Seed      uint64
	BatchSize int
	// Weights of the generator; nil means DefaultWeights.
	Weights Weights
	// Exclude leaves modes out for the programs that use a construct:
	// Exclude["for-range-const"] = {"grad"} checks no gradient of a
	// program with a range over an int constant (a known bug).
	Exclude map[string][]string
	// Shrink minimizes up to ShrinkMax failures per mode and category
	// (default 2), each within ShrinkBudget, and writes them to
	// KnownDir.
	Shrink       bool
	ShrinkMax    int
	ShrinkBudget time.Duration
	KnownDir     string
}

// Run generates and checks the programs and returns the summary and the
// files of the minimized failures it wrote.
func Run(rc *RunConfig) (*Summary, []string, error) {
	if rc.BatchSize <= 0 {
		rc.BatchSize = 100
	}
	if rc.ShrinkMax <= 0 {
		rc.ShrinkMax = 2
	}
	w := rc.Weights
	if w == nil {
		w = DefaultWeights()
	}
	s := &Summary{}
	var written []string
	shrunk := map[string]int{}
	end := rc.First + rc.N
	for start := rc.First; start < end; start += rc.BatchSize {
		var progs []*Program
		for i := start; i < min(start+rc.BatchSize, end); i++ {
			p := Generate(rc.Seed, i, w)
			if err := exclude(p, rc.Exclude); err != nil {
				return s, written, err
			}
			progs = append(progs, p)
		}
		t0 := time.Now()
		outs, err := RunBatch(&rc.Config, progs)
		if err != nil {
			return s, written, err
		}
		s.Add(outs)
		if rc.Log != nil {
			fmt.Fprintf(rc.Log, "difftest: programs %d–%d of seed %d: %.0fs, %d failures so far\n",
				start, start+len(progs)-1, rc.Seed, time.Since(t0).Seconds(), len(s.Failures))
		}
		for _, o := range outs {
			if o.Status != Fail {
				continue
			}
			if rc.Log != nil {
				fmt.Fprintf(rc.Log, "difftest: %v\n", o)
			}
			key := o.Mode + " " + Category(o)
			if !rc.Shrink || shrunk[key] >= rc.ShrinkMax {
				continue
			}
			shrunk[key]++
			path, err := rc.minimize(Shrink, o)
			if err != nil {
				return s, written, err
			}
			written = append(written, path)
		}
	}
	return s, written, nil
}

// minimize shrinks the program of the outcome o with shrink, writes it
// into rc.KnownDir, and returns the file's path.
func (rc *RunConfig) minimize(shrink func(*Config, ShrinkConfig, *Program, Outcome) (*Program, Outcome, error), o Outcome) (string, error) {
	q, qo, err := shrink(&rc.Config, ShrinkConfig{Budget: rc.ShrinkBudget}, o.Program, o)
	if err != nil {
		return "", err
	}
	path, err := WriteCase(rc.KnownDir, q, qo)
	if err != nil {
		return "", err
	}
	if rc.Log != nil {
		fmt.Fprintf(rc.Log, "difftest: minimized to %s\n", path)
	}
	return path, nil
}

// exclude drops from the //difftest:modes of p's entries the modes that
// ex excludes for p's constructs.
func exclude(p *Program, ex map[string][]string) error {
	var drop []string
	for _, f := range p.Features {
		drop = append(drop, ex[f]...)
	}
	if len(drop) == 0 {
		return nil
	}
	pp, err := parse(p.Src)
	if err != nil {
		return err
	}
	es, err := pp.entries()
	if err != nil {
		return err
	}
	src := p.Src
	for _, e := range es {
		modes := slices.DeleteFunc(slices.Clone(e.Modes), func(m string) bool { return slices.Contains(drop, m) })
		if src, err = withModes(src, e.Key(), modes); err != nil {
			return err
		}
	}
	p.Src = src
	return nil
}

// headerRE matches the generators' first comment line.
var headerRE = regexp.MustCompile(`^// (?:Tensor program|Program) (\d+) of seed (\d+) of difftest's (?:tensor )?generator\.\n`)

// WriteCase writes a program that fails (or, a tensor program, is
// refused) as o says into dir, as MODE-KIND-sSEEDpINDEX.go, with the
// outcome in its first comment, and returns the file's path.
func WriteCase(dir string, p *Program, o Outcome) (string, error) {
	detail := o.Detail
	if len(detail) > 300 {
		detail = detail[:300] + "…"
	}
	gen, verb, category := "generator", "failed", strings.ReplaceAll(Category(o), " ", "-")
	if tensorCase(p.Src) {
		gen = "tensor generator"
		category = strings.Trim(fileNameRE.ReplaceAllString(TensorCategory(o), "-"), "-")
		if len(category) > 40 {
			category = category[:40]
		}
		if o.Status == Refused {
			verb, category = "was refused", "refused-"+category
		}
	}
	head := fmt.Sprintf("// A case of difftest: program %d of seed %d of its %s, minimized.\n"+
		"// It %s: %s %s %s: %s\n", p.Index, p.Seed, gen, verb, o.Entry, o.Mode, o.Kind, oneLine(detail))
	src := tidy(headerRE.ReplaceAll(p.Src, nil))
	name := fmt.Sprintf("%s-%s-s%dp%d.go", o.Mode, category, p.Seed, p.Index)
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, append([]byte(head), src...), 0o666)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// tidy removes the empty lines that deleted statements leave at the
// start and the end of blocks.
func tidy(src []byte) []byte {
	lines := strings.Split(string(src), "\n")
	var out []string
	for i, l := range lines {
		if strings.TrimSpace(l) == "" && i > 0 && i+1 < len(lines) &&
			(strings.HasSuffix(lines[i-1], "{") || strings.TrimSpace(lines[i+1]) == "}") {
			continue
		}
		out = append(out, l)
	}
	res, err := formatSource([]byte(strings.Join(out, "\n")))
	if err != nil {
		return src
	}
	return res
}

// LoadCases reads the programs of the .go files of dir.
func LoadCases(dir string) ([]*Program, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var progs []*Program
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(path), ".go")
		progs = append(progs, &Program{Name: name, Src: bytes.Clone(src)})
	}
	return progs, nil
}
