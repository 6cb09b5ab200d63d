package gpu

import (
	"errors"
	"fmt"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// geom returns the launch.Geom of an elementwise kernel over shape with
// the operands' strides (operand 0 is the destination): dimensions of
// size 1 dropped, and adjacent dimensions merged where every operand's
// strides allow, so that contiguous operands give one dimension with unit
// strides. Offsets are not part of it (they go into the pointers).
func geom(shape []int, strides ...[]int) (*launch.Geom, error) {
	g := new(launch.Geom)
	n := 1
	for _, d := range shape {
		n *= d
	}
	g.N = int64(n)
	nd := 0
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if nd > 0 {
			// Merge with the previous kept dimension when, for every
			// operand, stepping it is stepping this one d times.
			merge := true
			for k, st := range strides {
				if g.St[k][nd-1] != int64(st[i])*int64(d) {
					merge = false
					break
				}
			}
			if merge {
				g.Shape[nd-1] *= int64(d)
				for k, st := range strides {
					g.St[k][nd-1] = int64(st[i])
				}
				continue
			}
		}
		if nd == launch.MaxDims {
			return nil, fmt.Errorf("gpu: shape %v with strides %v has more than %d dimensions that do not merge: %w", shape, strides, launch.MaxDims, errors.ErrUnsupported)
		}
		g.Shape[nd] = int64(d)
		for k, st := range strides {
			g.St[k][nd] = int64(st[i])
		}
		nd++
	}
	if nd == 0 { // one element
		g.Shape[0] = 1
		nd = 1
	}
	g.ND = int64(nd)
	return g, nil
}

// buf returns the device buffer of a, which tensorops made on this
// backend.
func buf(a T.DeviceArray) *buffer { return a.Buf.(*buffer) }

// base returns the address of a's first element.
func base(a T.DeviceArray) launch.Ptr { return buf(a).at(a.Offset) }
