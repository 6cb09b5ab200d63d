// Package geom is the target of cross-package directives.
package geom

import "math"

const Pi = math.Pi

type Vec struct{ X, Y float64 }

func (v Vec) Norm() float64 { return math.Hypot(v.X, v.Y) }

func (v *Vec) Scale(a float64) {
	v.X *= a
	v.Y *= a
}

type Named struct {
	Vec
	Name string
}

func Dist(a, b Vec) float64 {
	d := Vec{a.X - b.X, a.Y - b.Y}
	return d.Norm()
}

func Hidden(x float64) float64 { return scale * helper(x) }

var scale = 2.0

func helper(x float64) float64 { return x * x }

type point struct{ x, y float64 }

func Private(x float64) float64 {
	p := point{x, x}
	return p.x * p.y
}

func Generic[T ~float64](x T) T { return x * x }
