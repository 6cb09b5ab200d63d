package driver

// This file defines Main, gadgen's command-line interface: flags, usage
// and version.

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
	"github.com/gadgen/gadgen/ssaad/second"
	"github.com/gadgen/gadgen/ssaad/taylor"
)

// Exit statuses.
const (
	ExitOK    = 0 // nothing to report; with -check, every file is up to date
	ExitError = 1 // diagnostics, or with -check, files that would change
	ExitUsage = 2 // bad command line
)

// DefaultModes are the differentiation modes gadgen knows.
func DefaultModes() []ssaad.Mode {
	modes := []ssaad.Mode{taylor.Mode{Tangent: true}, reverse.Mode{}, reverse.Mode{Seeded: true}, reverse.Mode{Callee: true}, reverse.Mode{Split: true}, taylor.Mode{}}
	return append(modes, second.Helpers()...)
}

// Version is gadgen's version; when empty, the module version from the
// build information is used.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

const usage = `usage: gadgen [flags] [packages]

gadgen writes the derivatives that //gad: directives ask for. With no
packages, it processes the package in the current directory, as
//go:generate gadgen runs it. Run "go doc github.com/gadgen/gadgen/cmd/gadgen"
for details.

Flags:
`

// Main runs gadgen with the command-line arguments args (without the
// program name) and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	cfg := &Config{Stdout: stdout, Stderr: stderr, Modes: DefaultModes(), Summary: true}
	fs.BoolVar(&cfg.Check, "check", false, "write nothing; print a diff of each file that would change and exit 1 if any would")
	fs.BoolVar(&cfg.Verbose, "v", false, "list the files written, unchanged and deleted; print stacks of internal errors")
	fs.StringVar(&cfg.Dump, "dump", "", "print the IR of function `F` (or T.M) before and after each stage, and its analyses")
	fs.StringVar(&cfg.Dir, "C", "", "run in directory `dir`")
	fs.BoolVar(&cfg.Explain, "explain", false, "print where each tensor rewrite fired (position, rule, generated function)")
	fs.BoolVar(&cfg.NoOptimize, "O0", false, "do not optimize: run only the passes later stages need (for ablation)")
	fs.StringVar(&cfg.Reversal, "reversal", "auto", "how reverse mode differentiates calls: `auto`, joint, split or inline (for testing gadgen)")
	tags := fs.String("tags", "", "comma-separated build `tags`, as for go build")
	showVersion := fs.Bool("version", false, "print gadgen's version and exit")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitUsage
	}
	switch cfg.Reversal {
	case "auto", "joint", "inline", "split":
	default:
		fmt.Fprintf(stderr, "gadgen: -reversal=%s: want auto, joint, split or inline\n", cfg.Reversal)
		return ExitUsage
	}
	if *showVersion {
		fmt.Fprintf(stdout, "gadgen version %s\n", version())
		return ExitOK
	}
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") {
			fmt.Fprintf(stderr, "gadgen: flag %s after the packages\n", a)
			fs.Usage()
			return ExitUsage
		}
	}
	if *tags != "" {
		cfg.BuildFlags = append(cfg.BuildFlags, "-tags="+*tags)
	}
	cfg.Patterns = fs.Args()
	return Run(cfg)
}
