package gpu

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/gpu/internal/launch"
)

// ptxEntry is a kernel entry of the PTX and its parameter types.
type ptxEntry struct {
	name   string
	params []string // ".u64", ".f64", ".f32", ".b8[272]", ...
}

var (
	ptxEntryRE = regexp.MustCompile(`(?m)^\.visible \.entry (\w+)\(\s*([^)]*)\)`)
	ptxParamRE = regexp.MustCompile(`^\.param\s+(?:\.align\s+\d+\s+)?(\.\w+)\s+\w+(?:\[(\d+)\])?$`)
)

// parsePTX returns the entries of a PTX module.
func parsePTX(t *testing.T, ptx string) []ptxEntry {
	var es []ptxEntry
	for _, m := range ptxEntryRE.FindAllStringSubmatch(ptx, -1) {
		e := ptxEntry{name: m[1]}
		for _, p := range strings.Split(m[2], ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			pm := ptxParamRE.FindStringSubmatch(p)
			if pm == nil {
				t.Fatalf("%s: cannot parse parameter %q", e.name, p)
			}
			typ := pm[1]
			if pm[2] != "" {
				typ += "[" + pm[2] + "]"
			}
			e.params = append(e.params, typ)
		}
		es = append(es, e)
	}
	return es
}

// ptxType is the PTX parameter type of a kind.
func ptxType(k launch.Kind) string {
	switch k {
	case launch.KPtr, launch.KI64:
		return ".u64"
	case launch.KF64:
		return ".f64"
	case launch.KF32:
		return ".f32"
	case launch.KGeom:
		return ".b8[" + strconv.Itoa(launch.GeomBytes) + "]"
	}
	return "?" + k.String()
}

// TestPTXSignatures checks the embedded PTX against the Go declarations
// of the kernels (ops_*.go): the same entries, each with the parameter
// types the launcher passes. It needs no tools: a mismatch here is a
// kernel launched with the wrong arguments on a GPU.
func TestPTXSignatures(t *testing.T) {
	for _, h := range []string{".version 7.0", ".target sm_80", ".address_size 64"} {
		if !strings.Contains(ptxSM80, "\n"+h+"\n") {
			t.Errorf("PTX header: no line %q", h)
		}
	}
	entries := parsePTX(t, ptxSM80)
	if len(entries) == 0 {
		t.Fatal("no .visible .entry in the PTX")
	}
	ptx := map[string][]string{}
	for _, e := range entries {
		ptx[e.name] = e.params
	}
	decl := declared()
	seen := map[string]bool{}
	for _, k := range decl {
		seen[k.name] = true
		got, ok := ptx[k.name]
		if !ok {
			t.Errorf("%s: declared in Go, not in the PTX (go generate ./gpu/internal/kern?)", k.name)
			continue
		}
		var want []string
		for _, p := range k.params {
			want = append(want, ptxType(p))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: PTX parameters %v, Go declares %v (%v)", k.name, got, want, k.params)
		}
	}
	for _, e := range entries {
		if !seen[e.name] {
			t.Errorf("%s: in the PTX, not declared in Go (add it to an ops_*.go table and to declared)", e.name)
		}
	}
	t.Logf("%d kernels checked", len(decl))
}

// TestPTXParse checks the parser on a hand-written entry.
func TestPTXParse(t *testing.T) {
	es := parsePTX(t, ".visible .entry k(\n\t.param .align 8 .b8 k_param_0[272],\n\t.param .u64 k_param_1,\n\t.param .f32 k_param_2\n)\n{\n}\n")
	if len(es) != 1 || es[0].name != "k" || !slices.Equal(es[0].params, []string{".b8[272]", ".u64", ".f32"}) {
		t.Errorf("got %+v", es)
	}
}
