package difftest

import (
	"bytes"
	"testing"
)

// TestGenerate: programs are deterministic, type-check, and have entries.
func TestGenerate(t *testing.T) {
	w := DefaultWeights()
	for i := range 1000 {
		p := Generate(uint64(1+i%3), i, w)
		if q := Generate(uint64(1+i%3), i, w); !bytes.Equal(p.Src, q.Src) {
			t.Fatalf("program %d: two runs differ", i)
		}
		pp, err := parse(p.Src)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.Src)
		}
		if _, err := pp.entries(); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, p.Src)
		}
	}
}

// TestConstructs: every construct is generated, and a construct switched
// off is not.
func TestConstructs(t *testing.T) {
	seen := map[string]int{}
	for i := range 400 {
		for _, f := range Generate(2, i, DefaultWeights()).Features {
			seen[f]++
		}
	}
	// The rarest specials (method-update needs a model too), each
	// enabled in every program.
	all := DefaultWeights()
	for _, s := range Specials {
		all[s] = 100
	}
	for i := range 400 {
		for _, f := range Generate(2, i, all).Features {
			seen[f]++
		}
	}
	for c := range DefaultWeights() {
		if seen[c] == 0 {
			t.Errorf("construct %s: in none of 800 programs", c)
		}
	}
	off, err := DefaultWeights().With("closure=0", "for-range-const=0", "math-exp=0")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		p := Generate(2, i, off)
		for _, f := range p.Features {
			if f == "closure" || f == "for-range-const" || f == "math-exp" {
				t.Fatalf("program %d uses %s, switched off:\n%s", i, f, p.Src)
			}
		}
		if bytes.Contains(p.Src, []byte("math.Exp")) {
			t.Fatalf("program %d calls math.Exp, switched off:\n%s", i, p.Src)
		}
	}
}
