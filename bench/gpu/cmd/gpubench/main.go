// Command gpubench times suite S5's training step on the CPU and on GPU 0
// (package bench/gpu) and prints the table in Markdown, or writes it to
// the file given by -out:
//
//	go run ./bench/gpu/cmd/gpubench [-quick] [-out FILE]
//
// Without a GPU it measures the CPU and says why the GPU column is empty;
// it fails only on bad flags or an unwritable -out.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	gpubench "github.com/gadgen/gadgen/bench/gpu"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpubench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "a small network and short samples (a smoke test)")
	out := fs.String("out", "", "write the table to this file instead of standard output")
	sample := fs.Duration("sample", 0, "least duration of a sample (default 200ms)")
	samples := fs.Int("samples", 0, "samples per measurement, the least kept (default 5)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg := gpubench.Config{}
	if *quick {
		cfg = gpubench.Quick
	}
	if *sample > 0 {
		cfg.Sample = *sample
	}
	if *samples > 0 {
		cfg.Samples = *samples
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "gpubench:", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	gpubench.Run(cfg).Markdown(w)
	return 0
}
