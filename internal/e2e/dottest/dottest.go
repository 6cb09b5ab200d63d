// Package dottest checks gadgen's reverse mode against its forward mode
// on any function, through reflection: for F with generated FJVP and
// FGrad (default activity: every parameter whose type holds floats is
// varied), it draws random arguments and a random direction and checks
//
//	⟨∇F(x), v⟩ = FJVP(x, v)
//
// the dot-product test between the two modes, which needs no glue code
// per function, and compares ⟨∇F(x), v⟩ with the central difference of
// s ↦ F(x + s·v) (gonum's fd.Derivative, fd.Central).
package dottest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

// Case is a function and its generated derivatives.
type Case struct {
	Name         string
	F, JVP, Grad any
	Lo, Hi       float64 // range of the random floats; zero means [-1, 1]
	Len          int     // length of random slices; zero means 4
	Int          int     // value of int arguments; zero means 3
	Rel          float64 // relative tolerance; zero means 1e-10
	Points       int     // zero means 10
}

func holdsFloat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return true
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return holdsFloat(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsFloat(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// holdsMemory reports whether a struct or array type holds slices or
// pointers.
func holdsMemory(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Pointer:
		return true
	case reflect.Array:
		return holdsMemory(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsMemory(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// random returns a random value of type t; floats from fl.
func random(t reflect.Type, c *Case, fl func() float64) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(fl())
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(c.Int))
	case reflect.Bool:
		v.SetBool(fl() > 0)
	case reflect.String:
		v.SetString("gadgen")
	case reflect.Slice:
		n := c.Len
		v.Set(reflect.MakeSlice(t, n, n))
		for i := 0; i < n; i++ {
			v.Index(i).Set(random(t.Elem(), c, fl))
		}
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			v.Index(i).Set(random(t.Elem(), c, fl))
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if v.Field(i).CanSet() {
				v.Field(i).Set(random(t.Field(i).Type, c, fl))
			}
		}
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(random(t.Elem(), c, fl))
		v.Set(p)
	default:
		panic(fmt.Sprintf("dottest: no random %s", t))
	}
	return v
}

// zero returns a zero value of t with the shape of like (slices of the
// same lengths, pointers allocated).
func zero(like reflect.Value) reflect.Value {
	t := like.Type()
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, like.Len(), like.Len()))
		for i := 0; i < like.Len(); i++ {
			v.Index(i).Set(zero(like.Index(i)))
		}
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			v.Index(i).Set(zero(like.Index(i)))
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if v.Field(i).CanSet() {
				v.Field(i).Set(zero(like.Field(i)))
			}
		}
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(zero(like.Elem()))
		v.Set(p)
	}
	return v
}

// dot returns Σ a_i·b_i over the floats of a and b, which have one shape,
// and Σ |a_i·b_i|.
func dot(a, b reflect.Value) (s, mag float64) {
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		p := a.Float() * b.Float()
		return p, math.Abs(p)
	case reflect.Slice, reflect.Array:
		for i := 0; i < a.Len(); i++ {
			x, m := dot(a.Index(i), b.Index(i))
			s, mag = s+x, mag+m
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			x, m := dot(a.Field(i), b.Field(i))
			s, mag = s+x, mag+m
		}
	case reflect.Pointer:
		return dot(a.Elem(), b.Elem())
	}
	return s, mag
}

func deepCopy(v reflect.Value) reflect.Value {
	c := zero(v)
	copyInto(c, v)
	return c
}

func copyInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Slice, reflect.Array:
		for i := 0; i < src.Len(); i++ {
			copyInto(dst.Index(i), src.Index(i))
		}
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				copyInto(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Pointer:
		copyInto(dst.Elem(), src.Elem())
	default:
		dst.Set(src)
	}
}

func usesFloat32(ft reflect.Type) bool {
	var has func(t reflect.Type) bool
	has = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Float32:
			return true
		case reflect.Slice, reflect.Array, reflect.Pointer:
			return has(t.Elem())
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				if has(t.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	for i := 0; i < ft.NumIn(); i++ {
		if has(ft.In(i)) {
			return true
		}
	}
	for i := 0; i < ft.NumOut(); i++ {
		if has(ft.Out(i)) {
			return true
		}
	}
	return false
}

// Run checks each case. An empty table is a failure.
func Run(t *testing.T, cases []Case) {
	if len(cases) == 0 {
		t.Fatal("dottest: no cases to check")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { check(t, c) })
	}
}

func check(t *testing.T, c Case) {
	if c.Lo == 0 && c.Hi == 0 {
		c.Lo, c.Hi = -1, 1
	}
	if c.Len == 0 {
		c.Len = 4
	}
	if c.Int == 0 {
		c.Int = 3
	}
	if c.Rel == 0 {
		c.Rel = 1e-10
		if usesFloat32(reflect.TypeOf(c.F)) {
			c.Rel = 1e-5 // float32 rounding in either mode
		}
	}
	if c.Points == 0 {
		c.Points = 10
	}
	if c.Points < 0 {
		t.Fatalf("Points = %d: want at least one point", c.Points)
	}
	f := reflect.ValueOf(c.F)
	ft := f.Type()
	varied := false
	for i := 0; i < ft.NumIn(); i++ {
		varied = varied || holdsFloat(ft.In(i))
	}
	if !varied {
		t.Fatalf("%v: no parameter holds floats: there is no derivative to check", ft)
	}
	r := rand.New(rand.NewPCG(11, uint64(len(c.Name))))
	fl := func() float64 { return c.Lo + (c.Hi-c.Lo)*r.Float64() }
	dir := func() float64 { return 2*r.Float64() - 1 }
	for k := 0; k < c.Points; k++ {
		var xs, vs []reflect.Value
		active := make([]bool, ft.NumIn())
		for i := 0; i < ft.NumIn(); i++ {
			x := random(ft.In(i), &c, fl)
			xs = append(xs, x)
			active[i] = holdsFloat(ft.In(i))
			if active[i] {
				vs = append(vs, random(ft.In(i), &c, dir))
			} else {
				vs = append(vs, reflect.Value{})
			}
		}
		// JVP: each active parameter followed by its tangent.
		var jargs []reflect.Value
		for i := range xs {
			jargs = append(jargs, deepCopy(xs[i]))
			if active[i] {
				jargs = append(jargs, deepCopy(vs[i]))
			}
		}
		jout := reflect.ValueOf(c.JVP).Call(jargs)
		tangent := jout[len(jout)-1].Float()
		// Grad: slices and pointers followed by zeroed shadows, structs
		// and arrays holding slices or pointers by a pointer to one; the
		// partials of the others come back after the result.
		var gargs []reflect.Value
		var shadows []reflect.Value
		for i := range xs {
			gargs = append(gargs, deepCopy(xs[i]))
			if active[i] {
				switch k := ft.In(i).Kind(); {
				case k == reflect.Slice || k == reflect.Pointer:
					s := zero(xs[i])
					shadows = append(shadows, s)
					gargs = append(gargs, s)
				case holdsMemory(ft.In(i)):
					s := zero(xs[i])
					p := reflect.New(s.Type())
					p.Elem().Set(s)
					shadows = append(shadows, p)
					gargs = append(gargs, p)
				default:
					shadows = append(shadows, reflect.Value{})
				}
			}
		}
		gout := reflect.ValueOf(c.Grad).Call(gargs)
		want := f.Call(xsCopy(xs))[0].Float()
		if got := gout[0].Float(); got != want {
			t.Errorf("point %d: gradient's primal result %v, want %v", k, got, want)
		}
		total, mag := 0.0, 0.0
		next := 1
		si := 0
		for i := range xs {
			if !active[i] {
				continue
			}
			var g reflect.Value
			if s := shadows[si]; s.IsValid() {
				g = s
			} else {
				g = gout[next]
				next++
			}
			si++
			if g.Kind() == reflect.Pointer && vs[i].Kind() != reflect.Pointer {
				g = g.Elem() // a struct's shadow, passed by pointer
			}
			d, m := dot(g, vs[i])
			total, mag = total+d, mag+m
		}
		if !(math.Abs(total-tangent) <= c.Rel*mag+1e-13) { // NaN fails
			t.Errorf("point %d: ⟨∇F, v⟩ = %.17g, JVP = %.17g (|diff| %.3g)", k, total, tangent, math.Abs(total-tangent))
		}
		// And against the central difference of s ↦ F(x + s·v).
		line := func(s float64) float64 {
			args := make([]reflect.Value, len(xs))
			for i := range xs {
				args[i] = deepCopy(xs[i])
				if active[i] {
					axpy(args[i], s, vs[i])
				}
			}
			return f.Call(args)[0].Float()
		}
		step, tol := 1e-6, 1e-6
		if usesFloat32(ft) {
			step, tol = 1e-2, 1e-2
		}
		fdv := fd.Derivative(line, 0, &fd.Settings{Formula: fd.Central, Step: step})
		if !(math.Abs(total-fdv) <= tol*(1+math.Abs(fdv)+mag)) {
			t.Errorf("point %d: ⟨∇F, v⟩ = %.17g, central difference %.17g (|diff| %.3g)", k, total, fdv, math.Abs(total-fdv))
		}
	}
}

// axpy adds a·x to the floats of y, which have x's shape.
func axpy(y reflect.Value, a float64, x reflect.Value) {
	switch y.Kind() {
	case reflect.Float32, reflect.Float64:
		y.SetFloat(y.Float() + a*x.Float())
	case reflect.Slice, reflect.Array:
		for i := 0; i < y.Len(); i++ {
			axpy(y.Index(i), a, x.Index(i))
		}
	case reflect.Struct:
		for i := 0; i < y.NumField(); i++ {
			if y.Field(i).CanSet() {
				axpy(y.Field(i), a, x.Field(i))
			}
		}
	case reflect.Pointer:
		axpy(y.Elem(), a, x.Elem())
	}
}

func xsCopy(xs []reflect.Value) []reflect.Value {
	var out []reflect.Value
	for _, x := range xs {
		out = append(out, deepCopy(x))
	}
	return out
}
