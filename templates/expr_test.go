package templates

import (
	"math"
	"strings"
	"testing"
)

func TestParseEval(t *testing.T) {
	env := map[string]float64{"x": 2, "y": -3, "n": 2, "r": 0.5}
	for _, c := range []struct {
		expr string
		want float64
	}{
		{"1", 1},
		{"0.5e1", 5},
		{"x", 2},
		{"-x", -2},
		{"x + y*2", -4},
		{"(x + y) * 2", -2},
		{"x / 4 - 1", -0.5},
		{"math.Pi", math.Pi},
		{"2 / math.SqrtPi", 2 / math.SqrtPi},
		{"math.Sin(x)", math.Sin(2)},
		{"math.Atan2(y, x)", math.Atan2(-3, 2)},
		{"math.FMA(x, y, r)", math.FMA(2, -3, 0.5)},
		{"math.Jn(n-1, x)", math.J1(2)},
		{"math.Yn(-n, x)", math.Yn(-2, 2)},
		{"math.Ldexp(1, -n)", 0.25},
		{"math.Inf(1)", math.Inf(1)},
		{"gadDigamma(1)", -eulerGamma},
		{"where(x > y, 1, 0)", 1},
		{"where(x < y, 1, 0)", 0},
		{"where(x == 2 && y >= 0, 1, 0)", 0},
		{"where(x == 2 || y >= 0, 1, 0)", 1},
		{"where((x != 2) || (y <= -3), 1, 0)", 1},
		{"where(x >= 2, 1, math.Log(y))", 1}, // only the chosen operand is evaluated
		{"where(x > 0, 1, where(x < 0, -1, 0))", 1},
	} {
		e, err := Parse(c.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.expr, err)
			continue
		}
		got, err := Eval(e, env)
		if err != nil {
			t.Errorf("Eval(%q): %v", c.expr, err)
			continue
		}
		if got != c.want && !(math.Abs(got-c.want) <= 1e-15*math.Max(1, math.Abs(c.want))) { // Inf = Inf; NaN fails
			t.Errorf("Eval(%q) = %.17g, want %.17g", c.expr, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ expr, err string }{
		{"x +", "expected operand"},
		{`"s"`, "literal"},
		{"'c'", "literal"},
		{"1i", "literal"},
		{"x % y", "operator %"},
		{"x & y", "operator &"},
		{"+x", "unary +"},
		{"!x", "unary !"},
		{"x > y", "comparison > outside"},
		{"x && y", "&& outside"},
		{"where(x, 1, 0)", "x is not a condition"},
		{"where(x > 0 + 1, 1, 0)", ""}, // arithmetic inside a comparison is fine
		{"where(x > 0, 1)", "where takes 3 arguments"},
		{"where(x > 0, y < 0, 0)", "comparison < outside"},
		{"where((x > 0) + 1 > 0, 1, 0)", "comparison > outside"},
		{"where(x > 0 && 1, 1, 0)", "1 is not a condition"},
		{"where((x > 0) == (y > 0), 1, 0)", "comparison > outside"},
		{"math.Sincos(x)", "not a float64 function of package math"},
		{"math.Signbit(x)", "not a float64 function of package math"},
		{"math.Foo(x)", "not a float64 function of package math"},
		{"math.Sin(x, y)", "math.Sin takes 1 arguments, got 2"},
		{"math.MaxFloat64", "not a float constant"},
		{"math.Foo", "not a float constant"},
		{"strings.Foo(x)", "not a float64 function"},
		{"os.Args", "only math.Const"},
		{"sin(x)", "call of sin"},
		{"gadDigamma(x, y)", "takes 1 arguments"},
		{"float64(n)", "call of float64"},
		{"math.Sin(x...)", "..."},
		{"x[0]", "only a result of jvp(…) or vjp(…) may be indexed"},
		{"math.Sin(x)[0]", "only a result of jvp(…) or vjp(…) may be indexed"},
		{"vjp(x, y)[y]", "must be an integer literal"},
		{"vjp(x, y)[0]", ""},
		{"vjp(x, tensorops.OrZerosLike(y, x))", ""},
		{"jvp(x, y) + 1", ""},
		{"jvp(x, y > 0)", "comparison > outside"},
		{"jvp", "identifier jvp"},
		{"vjp + 1", "identifier vjp"},
		{"func() float64 { return 0 }()", "call of *ast.FuncLit"},
		{"nil", "identifier nil"},
		{"where", "identifier where"},
		{"math", "identifier math"},
		{"_", "identifier _"},
	} {
		_, err := Parse(c.expr)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("Parse(%q): %v, want no error", c.expr, err)
		case c.err != "" && err == nil:
			t.Errorf("Parse(%q) succeeded, want an error containing %q", c.expr, c.err)
		case c.err != "" && !strings.Contains(err.Error(), c.err):
			t.Errorf("Parse(%q): %v, want an error containing %q", c.expr, err, c.err)
		case err != nil && !strings.HasPrefix(err.Error(), "templates: "):
			t.Errorf("Parse(%q): %v, want the prefix \"templates: \"", c.expr, err)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	env := map[string]float64{"x": 2, "h": 0.5}
	for _, c := range []struct{ expr, err string }{
		{"z", "no value for z"},
		{"math.Sin(z)", "no value for z"},
		{"where(z > 0, 1, 0)", "no value for z"},
		{"math.Jn(h, x)", "argument 1 of math.Jn: 0.5 is not an int"},
		{"math.Ldexp(x, 1e300)", "is not an int"},
	} {
		e, err := Parse(c.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.expr, err)
			continue
		}
		_, err = Eval(e, env)
		if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "templates: Eval: ") {
			t.Errorf("Eval(%q): %v, want an error \"templates: Eval: ...%s...\"", c.expr, err, c.err)
		}
	}
}

// TestConventions pins the values the rules choose at kinks, ties and
// poles, as documented in their Notes and the package doc.
func TestConventions(t *testing.T) {
	inf := math.Inf(1)
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		pkg, name   string
		res, param  string
		args        []float64
		want        float64
		description string
	}{
		{"math", "Abs", "r", "x", []float64{0}, 0, "Abs'(0) = 0"},
		{"math", "Abs", "r", "x", []float64{-2}, -1, "Abs'(-2) = -1"},
		{"math", "Max", "r", "x", []float64{1, 1}, 1, "Max: ties go to x"},
		{"math", "Max", "r", "y", []float64{1, 1}, 0, "Max: ties go to x"},
		{"math", "Min", "r", "x", []float64{1, 1}, 1, "Min: ties go to x"},
		{"math", "Min", "r", "y", []float64{1, 1}, 0, "Min: ties go to x"},
		{"", "max", "r", "x", []float64{1, 1}, 1, "max: ties go to x"},
		{"", "max", "r", "y", []float64{1, 1}, 0, "max: ties go to x"},
		{"", "min", "r", "x", []float64{1, 1}, 1, "min: ties go to x"},
		{"", "min", "r", "y", []float64{1, 1}, 0, "min: ties go to x"},
		{"", "max", "r", "y", []float64{negZero, 0}, 0, "max(-0, +0): -0 == +0 is a tie"},
		{"math", "Dim", "r", "x", []float64{1, 1}, 0, "Dim: 0 at x = y"},
		{"math", "Dim", "r", "y", []float64{1, 1}, 0, "Dim: 0 at x = y"},
		{"math", "Dim", "r", "y", []float64{2, 1}, -1, "Dim: -1 for x > y"},
		{"math", "Mod", "r", "x", []float64{7, 2}, 1, "Mod: ∂x = 1"},
		{"math", "Mod", "r", "y", []float64{7, 2}, -3, "Mod: ∂y = -trunc(x/y)"},
		{"math", "Mod", "r", "y", []float64{-7, 2}, 3, "Mod: ∂y = -trunc(x/y)"},
		{"math", "Remainder", "r", "y", []float64{7, 2}, -4, "Remainder: ∂y = -roundToEven(x/y)"},
		{"math", "Pow", "r", "x", []float64{0, 0}, 0, "Pow: ∂x = 0 where y = 0"},
		{"math", "Pow", "r", "x", []float64{0, 1}, 1, "Pow: ∂x at x = 0, y = 1"},
		{"math", "Pow", "r", "x", []float64{-2, 3}, 12, "Pow: ∂x exact for x < 0, integer y"},
		{"math", "Pow", "r", "y", []float64{0, 2}, 0, "Pow: ∂y = 0 where x = 0, y ≥ 0"},
		{"math", "Pow", "r", "y", []float64{-2, 3}, math.NaN(), "Pow: ∂y is NaN for x < 0"},
		{"math", "Hypot", "r", "p", []float64{0, 0}, 0, "Hypot: 0 at the origin"},
		{"math", "Hypot", "r", "q", []float64{0, 0}, 0, "Hypot: 0 at the origin"},
		{"math", "Hypot", "r", "p", []float64{3, 4}, 0.6, "Hypot: p/r"},
		{"math", "Copysign", "r", "f", []float64{0, -1}, 0, "Copysign: ∂f = 0 at f = 0"},
		{"math", "Copysign", "r", "f", []float64{-2, 1}, -1, "Copysign: ∂f = sgn f · sgn sign"},
		{"math", "Copysign", "r", "f", []float64{2, negZero}, -1, "Copysign: -0 is negative"},
		{"math", "Copysign", "r", "f", []float64{-2, -5}, 1, "Copysign: ∂f = sgn f · sgn sign"},
		{"math", "J1", "r", "x", []float64{0}, 0.5, "J1'(0) = 1/2"},
		{"math", "Sqrt", "r", "x", []float64{0}, inf, "Sqrt'(0) = +Inf"},
		{"math", "Cbrt", "r", "x", []float64{0}, inf, "Cbrt'(0) = +Inf"},
		{"math", "Frexp", "frac", "f", []float64{12}, 1.0 / 16, "Frexp: 12 = 0.75·2⁴"},
		{"math", "Ldexp", "r", "frac", []float64{3, -2}, 0.25, "Ldexp: 2^exp"},
		{"math", "Modf", "fractional", "f", []float64{-2.5}, 1, "Modf: fractional' = 1"},
		{"math", "Lgamma", "lgamma", "x", []float64{-0.5}, 2 - eulerGamma - 2*math.Ln2, "Lgamma: ψ(-1/2)"},
		{"math", "Gamma", "r", "x", []float64{1}, -eulerGamma, "Gamma'(1) = -γ"},
		{mathextPkg, "Lbeta", "r", "a", []float64{1, 1}, -1, "Lbeta: ψ(1) - ψ(2) = -1"},
		{mathextPkg, "Beta", "r", "b", []float64{2, 1}, -0.75, "Beta: B(2, 1)·(ψ(1) - ψ(3)) = ½·(-3/2)"},
		{mathextPkg, "Digamma", "r", "x", []float64{1}, math.Pi * math.Pi / 6, "Digamma'(1) = π²/6"},
		{"", "gadPolygamma", "r", "x", []float64{1, 0.5}, -14 * 1.2020569031595942, "ψ⁽²⁾(1/2) = -14ζ(3)"},
	} {
		r, ok := Lookup(c.pkg, c.name)
		if !ok {
			t.Errorf("%s: no rule %s.%s", c.description, c.pkg, c.name)
			continue
		}
		env := make(map[string]float64)
		for j, p := range r.Params {
			env[p] = c.args[j]
		}
		for i, v := range call(r, c.args) {
			env[r.Results[i]] = v
		}
		i, j := indexOf(r.Results, c.res), indexOf(r.Params, c.param)
		e, err := Parse(r.Partials[i][j])
		if err != nil {
			t.Errorf("%s: %v", c.description, err)
			continue
		}
		got, err := Eval(e, env)
		if err != nil {
			t.Errorf("%s: %v", c.description, err)
			continue
		}
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want) || math.Abs(got-c.want) <= 1e-15*math.Max(1, math.Abs(c.want))) {
			t.Errorf("%s: %s: ∂%s/∂%s at %v: got %v, want %v", c.description, r.Name, c.res, c.param, c.args, got, c.want)
		}
	}
}

func indexOf(names []string, n string) int {
	for k, m := range names {
		if m == n {
			return k
		}
	}
	panic("templates_test: no name " + n)
}
