package difftest

import (
	"bytes"
	"testing"
)

// TestGenerateTensor: tensor programs are deterministic, type-check and
// say what the harness needs.
func TestGenerateTensor(t *testing.T) {
	for i := range 300 {
		p := GenerateTensor(uint64(1+i%3), i)
		if q := GenerateTensor(uint64(1+i%3), i); !bytes.Equal(p.Src, q.Src) {
			t.Fatalf("program %d: two runs differ", i)
		}
		if _, err := parseTensor(p.Src); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.Src)
		}
		if _, err := parseTensorProgram(p); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.Src)
		}
	}
}
