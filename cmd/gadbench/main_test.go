package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		stdout   string // a substring of the output
		stderr   string
		noOutput bool
	}{
		{args: []string{"-quick", "-run", "S1a"}, code: 0, stdout: "| S1a Rosenbrock | n=100 | 100 |"},
		{args: []string{"-quick", "-run", "("}, code: 2, stderr: "-run:", noOutput: true},
		{args: []string{"extra"}, code: 2, stderr: "unexpected arguments", noOutput: true},
		{args: []string{"-nosuchflag"}, code: 2, stderr: "flag provided but not defined", noOutput: true},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(c.args, &stdout, &stderr); code != c.code {
				t.Errorf("exit status: got %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), c.stdout) {
				t.Errorf("stdout: got\n%s\nwant it to contain %q", stdout.String(), c.stdout)
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr: got\n%s\nwant it to contain %q", stderr.String(), c.stderr)
			}
			if c.noOutput && stdout.Len() > 0 {
				t.Errorf("stdout: got\n%s\nwant nothing", stdout.String())
			}
		})
	}
}
