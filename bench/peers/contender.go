package peers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DType is the floating-point type a contender computes in.
type DType int

const (
	Float64 DType = iota
	Float32
)

// DTypes lists the dtypes in table order.
var DTypes = []DType{Float64, Float32}

func (d DType) String() string {
	switch d {
	case Float64:
		return "float64"
	case Float32:
		return "float32"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// ParseDTypes reads "float64", "float32" or "both".
func ParseDTypes(s string) ([]DType, error) {
	switch s {
	case "float64":
		return []DType{Float64}, nil
	case "float32":
		return []DType{Float32}, nil
	case "both":
		return DTypes, nil
	}
	return nil, fmt.Errorf("dtype %q: want float64, float32 or both", s)
}

// A Contender computes the loss of a Problem and its gradient with respect
// to the six parameter arrays, in one dtype, with one library or one way
// of writing it.
//
// Setup receives the parameters and the data (converted to the
// contender's dtype by the contender) and does everything that a training
// loop does once: building and compiling graphs, allocating inputs. It is
// timed separately. Loss and Grad are then called repeatedly on the same
// parameters and data and are timed; each must finish all of its work
// before returning (no lazy evaluation left for Gradient). Gradient is not
// timed: it converts the gradient of the last Grad call to float64 in the
// layout of Problem.Params.
type Contender interface {
	// Name is the contender's name in the tables, with its version.
	Name() string
	// Setup prepares the contender for p. It returns an error wrapping
	// ErrUnsupported when the library cannot compute the problem in the
	// contender's dtype.
	Setup(p *Problem) error
	// Loss returns the loss.
	Loss() float64
	// Grad computes the loss and its gradient and returns the loss.
	Grad() float64
	// Gradient returns the gradient computed by the last call of Grad.
	Gradient() Grads
}

// A SelfTimed contender computes in another process (PyTorch, through a
// Python worker) and times its own calls there, so that the round trip
// from Go is not part of its times. Run times it with NewSelfTimer
// instead of timing Loss and Grad.
type SelfTimed interface {
	Contender
	// TimeLoss computes the loss n times, as Loss does, and returns the
	// time of the n calls as measured in the other process.
	TimeLoss(n int) time.Duration
	// TimeGrad is TimeLoss for Grad.
	TimeGrad(n int) time.Duration
}

// ErrUnsupported is wrapped by Setup's error when a contender cannot
// compute the problem, for instance in a dtype its library lacks.
var ErrUnsupported = errors.New("unsupported")

// An Entry is one registered contender.
type Entry struct {
	// Key is the short name used in benchmark names and flags, e.g.
	// "gomlx".
	Key string
	// New returns a contender that computes in dtype d.
	New func(d DType) Contender
}

var registry []Entry

// Register adds a contender under a short key; it is meant to be called
// from an init function. Register panics on a duplicate key.
func Register(key string, newContender func(d DType) Contender) {
	for _, e := range registry {
		if e.Key == key {
			panic("peers: contender " + key + " registered twice")
		}
	}
	registry = append(registry, Entry{Key: key, New: newContender})
}

// Entries returns the registered contenders: the plain-Go reference first,
// then the others sorted by key.
func Entries() []Entry {
	out := slices.Clone(registry)
	slices.SortStableFunc(out, func(a, b Entry) int {
		if (a.Key == PlainKey) != (b.Key == PlainKey) {
			if a.Key == PlainKey {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out
}
