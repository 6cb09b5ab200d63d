package ssaad

import (
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	for _, c := range []struct {
		kv   string // "k=v k=v"
		want Options
		str  string // String(), or the error's start
	}{
		{"", Options{}, ""},
		{"order=3", Options{Order: 3}, " order=3"},
		{"order=2 seed=line collapsed=8", Options{Order: 2, Line: true, Lanes: 8, Collapsed: true}, " collapsed=8 order=2 seed=line"},
		{"seed=jet order=1", Options{Order: 1}, " order=1"},
		{"gonum=true value=false", Options{Gonum: true, NoValue: true}, " gonum=true value=false"},
		{"value=true", Options{}, ""},
		{"order=0", Options{}, "order=0: want an integer K with 1 ≤ K ≤ 12"},
		{"order=x", Options{}, "order=x: want an integer"},
		{"order=13", Options{}, "order=13: want"},
		{"seed=curve", Options{}, "seed=curve: want seed=jet"},
		{"order=3 collapsed=8", Options{}, "collapsed=8: want 1 to 16 directions, at order=2"},
		{"order=2 collapsed=17", Options{}, "collapsed=17: want"},
		{"gonum=yes", Options{}, "option gonum=yes: the value must be true"},
		{"value=no", Options{}, "option value=no: the value must be true or false"},
		{"speed=9", Options{}, `unknown option "speed"`},
	} {
		var keys, values []string
		for _, f := range strings.Fields(c.kv) {
			k, v, _ := strings.Cut(f, "=")
			keys, values = append(keys, k), append(values, v)
		}
		got, err := ParseOptions(keys, values)
		if err != nil {
			if !strings.HasPrefix(err.Error(), c.str) || c.str == "" {
				t.Errorf("%q: error %v, want %q", c.kv, err, c.str)
			}
			continue
		}
		if got != c.want || got.String() != c.str {
			t.Errorf("%q: %+v (%q), want %+v (%q)", c.kv, got, got.String(), c.want, c.str)
		}
	}
}
