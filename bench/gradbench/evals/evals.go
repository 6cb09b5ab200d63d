// Package evals lists gadgen's implementations of GradBench's evals, one
// package each, by the module name GradBench's define message uses.
package evals

import (
	"github.com/gadgen/gadgen/bench/gradbench/evals/ba"
	"github.com/gadgen/gadgen/bench/gradbench/evals/det"
	"github.com/gadgen/gadgen/bench/gradbench/evals/gmm"
	"github.com/gadgen/gadgen/bench/gradbench/evals/hello"
	"github.com/gadgen/gadgen/bench/gradbench/evals/ht"
	"github.com/gadgen/gadgen/bench/gradbench/evals/kmeans"
	"github.com/gadgen/gadgen/bench/gradbench/evals/llsq"
	"github.com/gadgen/gadgen/bench/gradbench/evals/lse"
	"github.com/gadgen/gadgen/bench/gradbench/evals/lstm"
	"github.com/gadgen/gadgen/bench/gradbench/evals/ode"
	"github.com/gadgen/gadgen/bench/gradbench/evals/particle"
	"github.com/gadgen/gadgen/bench/gradbench/evals/saddle"
	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Modules maps each GradBench module name to its implementation.
var Modules = map[string]protocol.Module{
	"ba":       ba.Module,
	"det":      det.Module,
	"gmm":      gmm.Module,
	"hello":    hello.Module,
	"ht":       ht.Module,
	"kmeans":   kmeans.Module,
	"llsq":     llsq.Module,
	"lse":      lse.Module,
	"lstm":     lstm.Module,
	"ode":      ode.Module,
	"particle": particle.Module,
	"saddle":   saddle.Module,
}
