// Command gbsuite runs gadgen's GradBench tool through GradBench's evals as
// GradBench runs them, validates every output against GradBench's reference
// and writes the results, the table and the plot.
//
// Usage:
//
//	gbsuite -gradbench DIR [-evals gmm,lstm] [-small] [-min-runs 1] [-min-seconds 1] [-out DIR]
//	gbsuite -table [-out DIR]
//
// DIR is a clone of GradBench's repository (git clone
// https://github.com/gradbench/gradbench): its evals' data files, its C++
// reference tool (tools/manual, built here with make if its binaries are
// missing; it needs Debian's nlohmann-json3-dev) and, from its git history,
// the LSTM data files GradBench used until 2025-03. The tool is built from
// bench/gradbench (or given with -tool). Each eval runs in a session
// (package suite) that sends GradBench's messages with inputs generated as
// GradBench's evals generate them and validates each output by GradBench's
// rule; the command exits with status 1 if any evaluation failed or was
// invalid.
//
// Written to -out (default bench/gradbench/results): results.json (every
// evaluation: valid, runs, mean time), logs/<eval>.jsonl (the sessions in
// GradBench's log format; not committed, inputs make them large), and,
// with the nightly data in bench/gradbench/nightly, RESULTS.md (per eval
// and workload: gadgen's primal and derivative times and their ratio beside
// every GradBench tool's ratio) and ratios.svg (the plot). -table remakes
// the table and plot from results.json alone.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gadgen/gadgen/bench/gradbench/suite"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := flag.NewFlagSet("gbsuite", flag.ContinueOnError)
	gb := fs.String("gradbench", "", "a clone of GradBench's repository")
	evals := fs.String("evals", "", "comma-separated evals to run (default: all)")
	small := fs.Bool("small", false, "only each eval's smallest workloads")
	minRuns := fs.Int("min-runs", 1, "min_runs of every evaluation (GradBench's default 1)")
	minSeconds := fs.Float64("min-seconds", 1, "min_seconds of every evaluation (GradBench's default 1)")
	tool := fs.String("tool", "", "the tool's command line (default: build bench/gradbench)")
	out := fs.String("out", filepath.Join("bench", "gradbench", "results"), "output directory")
	nightly := fs.String("nightly", filepath.Join("bench", "gradbench", "nightly"), "GradBench's nightly summaries")
	tableOnly := fs.Bool("table", false, "only remake the table and plot from results.json")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *tableOnly {
		return report(*out, *nightly)
	}
	if *gb == "" {
		fmt.Fprintln(os.Stderr, "gbsuite: -gradbench DIR is required (a clone of github.com/gradbench/gradbench)")
		return 2
	}
	selected, err := pick(*evals)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := os.MkdirAll(filepath.Join(*out, "logs"), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	manual, err := buildManual(*gb)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gbsuite:", err)
		return 1
	}
	history, err := extractHistory(*gb, filepath.Join(*out, "history"))
	if err != nil {
		// Only the LSTM needs them; its session reports the files missing.
		fmt.Fprintln(os.Stderr, "gbsuite: warning:", err)
	}
	argv := strings.Fields(*tool)
	if len(argv) == 0 {
		bin := filepath.Join(*out, "gradbench-gadgen")
		if err := sh("", "go", "build", "-o", bin, "./bench/gradbench"); err != nil {
			fmt.Fprintln(os.Stderr, "gbsuite: building the tool:", err)
			return 1
		}
		argv = []string{bin}
	}
	opts := suite.Options{Data: filepath.Join(*gb, "evals"), History: history, Small: *small}
	all := loadResults(*out)
	status := 0
	for _, e := range selected {
		logf, err := os.Create(filepath.Join(*out, "logs", e.Name+".jsonl"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		s := &suite.Session{
			Eval: e, Tool: argv, Options: opts, Manual: suite.Manual{Dir: manual},
			Runs: suite.Runs{MinRuns: *minRuns, MinSeconds: *minSeconds}, Log: logf,
			Progress: func(r suite.Result) {
				mark := "valid"
				if !r.Valid {
					mark = "INVALID"
				}
				fmt.Printf("%-8s %-10s %-28s %-7s %4d runs %12.0f ns\n", r.Eval, r.Function, r.Description, mark, r.Runs, r.Mean)
				if r.Error != "" {
					fmt.Printf("    %s\n", strings.ReplaceAll(r.Error, "\n", "\n    "))
				}
			},
		}
		results, err := s.Run()
		logf.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "gbsuite: %s: %v\n", e.Name, err)
			status = 1
		}
		for _, r := range results {
			if !r.Valid {
				status = 1
			}
		}
		all[e.Name] = results
	}
	if err := saveResults(*out, all); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if st := report(*out, *nightly); st != 0 {
		return st
	}
	return status
}

// pick returns the evals named in list (all when empty).
func pick(list string) ([]*suite.Eval, error) {
	if list == "" {
		return suite.Evals, nil
	}
	var out []*suite.Eval
	for _, name := range strings.Split(list, ",") {
		e, err := suite.Lookup(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// buildManual returns GradBench's reference tool's directory, building
// its binaries with its Makefile if any is missing (nlohmann's json.hpp from
// Debian's nlohmann-json3-dev instead of the download its Makefile does).
func buildManual(gb string) (string, error) {
	dir := filepath.Join(gb, "tools", "manual")
	missing := false
	for _, e := range []string{"ba", "det", "gmm", "hello", "ht", "kmeans", "llsq", "lse", "lstm", "ode"} {
		if _, err := os.Stat(filepath.Join(dir, "bin", e)); err != nil {
			missing = true
		}
	}
	if !missing {
		return dir, nil
	}
	if _, err := os.Stat("/usr/include/nlohmann/json.hpp"); err != nil {
		return "", fmt.Errorf("GradBench's manual tool needs nlohmann's json.hpp: apt-get install -y nlohmann-json3-dev")
	}
	fmt.Println("gbsuite: building GradBench's reference tool (tools/manual)")
	return dir, sh("", "make", "-C", dir, "-j2", "NATIVE=no",
		"CXXFLAGS=-std=c++17 -O3 -Wall -I../../cpp -I/usr/include/nlohmann -Wno-unknown-pragmas")
}

// lstmFiles are the LSTM eval's data files until GradBench commit
// f8ce3e95 (2025-03-13) made it generate its data from a text file.
var lstmFiles = []string{"lstm_l2_c1024.txt", "lstm_l2_c4096.txt", "lstm_l4_c1024.txt", "lstm_l4_c4096.txt"}

// extractHistory writes the data files GradBench has since removed into
// dir, from the clone's git history, and returns dir.
func extractHistory(gb, dir string) (string, error) {
	target := filepath.Join(dir, "lstm", "data")
	if err := os.MkdirAll(target, 0o755); err != nil {
		return "", err
	}
	for _, f := range lstmFiles {
		path := filepath.Join(target, f)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		cmd := exec.Command("git", "-C", gb, "show", "f8ce3e95^:evals/lstm/data/"+f)
		b, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("the LSTM's data file %s from GradBench's history (git show f8ce3e95^:evals/lstm/data/%s): %v; is %s a full clone?", f, f, err, gb)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func sh(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// loadResults reads results.json, keeping evals not run this time.
func loadResults(out string) map[string][]suite.Result {
	all := map[string][]suite.Result{}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err == nil {
		_ = json.Unmarshal(b, &all)
	}
	return all
}

func saveResults(out string, all map[string][]suite.Result) error {
	b, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "results.json"), append(b, '\n'), 0o644)
}
