package suite

import (
	"fmt"
	"math"
	"sort"
)

// Tolerance is GradBench's: two numbers a (expected) and b (actual)
// mismatch when |a−b| / max(1, |a|+|b|) > Tolerance.
const Tolerance = 1e-4

// Compare returns GradBench's mismatches between expected and actual, two
// values decoded from JSON (encoding/json's any: float64, string, bool,
// nil, []any, map[string]any), as GradBench's comparison.py reports them:
// values of different JSON types, object keys one side lacks, arrays of
// different lengths, and numbers apart by more than Tolerance. JSON does
// not tell integers from floats once decoded, and GradBench's rule treats
// them alike.
func Compare(expected, actual any) []string {
	var out []string
	compare(expected, actual, "", &out)
	return out
}

func compare(e, a any, path string, out *[]string) {
	switch ev := e.(type) {
	case map[string]any:
		av, ok := a.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: expected an object, got %s", path, kind(a)))
			return
		}
		keys := make([]string, 0, len(ev)+len(av))
		for k := range ev {
			keys = append(keys, k)
		}
		for k := range av {
			if _, ok := ev[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			ek, inE := ev[k]
			ak, inA := av[k]
			switch {
			case !inE:
				*out = append(*out, fmt.Sprintf("unexpected key '%s'", p))
			case !inA:
				*out = append(*out, fmt.Sprintf("key '%s' is missing", p))
			default:
				compare(ek, ak, p, out)
			}
		}
	case []any:
		av, ok := a.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: expected an array, got %s", path, kind(a)))
			return
		}
		if len(ev) != len(av) {
			*out = append(*out, fmt.Sprintf("%s: expected an array of length %d, got length %d", path, len(ev), len(av)))
			return
		}
		for i := range ev {
			compare(ev[i], av[i], fmt.Sprintf("%s[%d]", path, i), out)
		}
	case float64:
		av, ok := a.(float64)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: expected a number, got %s", path, kind(a)))
			return
		}
		if Difference(ev, av) > Tolerance || math.IsNaN(av) != math.IsNaN(ev) {
			*out = append(*out, fmt.Sprintf("%s: %v != %v", path, ev, av))
		}
	default:
		if kind(e) != kind(a) || e != a {
			*out = append(*out, fmt.Sprintf("%s: %v != %v", path, e, a))
		}
	}
}

// Difference is GradBench's (and ADBench's) normalized difference
// |a−b| / max(1, |a|+|b|).
func Difference(a, b float64) float64 {
	return math.Abs(a-b) / max(1, math.Abs(a)+math.Abs(b))
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
