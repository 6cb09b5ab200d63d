package nprand

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// numpyOut is testdata/numpy.json.
type numpyOut struct {
	Numpy      string    `json:"numpy"`
	Legacy     []float64 `json:"legacy_31337"`
	PCGRaw     []string  `json:"pcg_uint64_31337"`
	DefaultRNG struct {
		Normal  []float64 `json:"normal"`
		Uniform []float64 `json:"uniform"`
		Normal2 []float64 `json:"normal2"`
	} `json:"default_rng_31337"`
}

func load(t *testing.T) numpyOut {
	b, err := os.ReadFile("testdata/numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var o numpyOut
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// ulps returns how many doubles lie between a and b (of one sign).
func ulps(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	if d < 0 {
		d = -d
	}
	return d
}

// near checks that got and want differ by at most maxULP units in the last
// place, element by element, and reports how many differ at all.
func near(t *testing.T, name string, got, want []float64, maxULP int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	var worst int64
	differ := 0
	for i := range want {
		u := ulps(got[i], want[i])
		if u > 0 {
			differ++
		}
		if u > worst {
			worst = u
		}
		if u > maxULP {
			t.Errorf("%s[%d] = %v, numpy %v: %d ulps apart", name, i, got[i], want[i], u)
		}
	}
	t.Logf("%s: %d of %d differ from numpy's, by at most %d ulps", name, differ, len(want), worst)
}

func same(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			if bad < 5 {
				t.Errorf("%s[%d] = %v, numpy %v", name, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d differ", name, bad, len(want))
	}
}

func TestLegacyMatchesNumpy(t *testing.T) {
	o := load(t)
	same(t, "rand", NewMT19937(31337).Rand(len(o.Legacy)), o.Legacy)
}

func TestPCG64MatchesNumpy(t *testing.T) {
	o := load(t)
	p := NewPCG64(31337)
	for i, s := range o.PCGRaw {
		want, _ := strconv.ParseUint(s, 10, 64)
		if got := p.Uint64(); got != want {
			t.Fatalf("draw %d = %d, numpy %d", i, got, want)
		}
	}
	p = NewPCG64(31337)
	near(t, "normal", p.Normal(len(o.DefaultRNG.Normal)), o.DefaultRNG.Normal, 512)
	same(t, "uniform", p.Uniform(len(o.DefaultRNG.Uniform)), o.DefaultRNG.Uniform)
	n2 := p.Normal(200000)
	near(t, "normal2", n2[len(n2)-len(o.DefaultRNG.Normal2):], o.DefaultRNG.Normal2, 512)
}
