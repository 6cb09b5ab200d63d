// Command genptx compiles package gpu's kernels to PTX with the pinned
// clang (go generate in gpu/internal/kern runs it):
//
//	go run ./genptx -o gad_sm80.ptx all.h
//
// It runs
//
//	clang++-16 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib
//	    -O3 -Xclang -target-feature -Xclang +ptx70 -S SRC -o OUT
//
// and refuses another clang version than the pinned one: the PTX is
// committed and CI checks that regenerating it changes nothing, so every
// machine must produce the same bytes (clang 14 and 16 differ in labels
// and register numbering). sm_80 with PTX ISA 7.0 runs on A100, H100 and
// later GPUs (the driver JIT-compiles PTX for newer architectures) with
// any driver of CUDA 11.0 or later. The clang binary can be overridden
// with $GAD_CLANG (the version check still applies unless -any-version).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// pinned is the first line clang --version must print.
const pinned = "Debian clang version 16.0.6 (15~deb12u1)"

func main() {
	out := flag.String("o", "", "output PTX file")
	arch := flag.String("arch", "sm_80", "GPU architecture")
	anyVersion := flag.Bool("any-version", false, "accept a clang other than "+pinned+" (the PTX will differ from the committed one)")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: genptx -o OUT.ptx SRC.h")
		os.Exit(2)
	}
	if err := run(*out, flag.Arg(0), *arch, *anyVersion); err != nil {
		fmt.Fprintln(os.Stderr, "genptx:", err)
		os.Exit(1)
	}
}

func run(out, src, arch string, anyVersion bool) error {
	clang := os.Getenv("GAD_CLANG")
	if clang == "" {
		clang = "clang++-16"
	}
	v, err := exec.Command(clang, "--version").Output()
	if err != nil {
		return fmt.Errorf("%s --version: %v (install the pinned clang: apt-get install clang-16 on Debian 12)", clang, err)
	}
	first, _, _ := strings.Cut(string(v), "\n")
	if first != pinned && !anyVersion {
		return fmt.Errorf("%s is %q, want %q (or pass -any-version)", clang, first, pinned)
	}
	tmp := out + ".tmp"
	cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch="+arch,
		"-nocudainc", "-nocudalib", "-O3", "-Xclang", "-target-feature", "-Xclang", "+ptx70",
		"-Werror", "-S", src, "-o", tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%v\n%s", err, stderr.String())
	}
	return os.Rename(tmp, out)
}
