// Package badimport imports a package that does not exist, whose type a
// differentiated parameter has, while other code calls the derivative:
// gadgen reports the import, not what wrt= or the default activity would
// say of a parameter of an invalid type ("holds no floating-point
// values"), nor the calls of the derivative it could not stub
// ("undefined: LossGrad").
//
// want nothing else
package badimport

import "github.com/gadgen/gadgen/internal/nosuchpackage" // want "nosuchpackage"

// Loss names the parameter of the type that failed to import.
//
//gad:grad wrt=m
func Loss(m *nosuchpackage.Model, x float64) float64 { return x * x }

// Risk varies its parameters by default.
//
//gad:grad
func Risk(m *nosuchpackage.Model) float64 { return 0 }

// Use calls the derivatives.
func Use(m, mBar *nosuchpackage.Model) float64 {
	f, _ := LossGrad(m, mBar, 1)
	return f + RiskGrad(m, mBar)
}
