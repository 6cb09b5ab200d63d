package gpu

import (
	"fmt"
	"unsafe"

	T "github.com/gadgen/gadgen/tensorops"
)

// backend implements tensorops.DeviceBackend for CUDAKind. Its methods
// are spread over the files of the op groups (ops_*.go); this file has
// memory and transfers.
type backend struct{}

var _ T.DeviceBackend = backend{}

func esize(dt T.DType) int {
	if dt == T.Float32 {
		return 4
	}
	return 8
}

func (backend) Alloc(dev T.Device, dt T.DType, n int) (T.DeviceBuffer, error) {
	st, err := state(dev.ID)
	if err != nil {
		return nil, err
	}
	b, err := newBuffer(st, n, esize(dt))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// hostBytes returns the address and size in bytes of s, a []float64 or
// []float32 of element size es.
func hostBytes(s any, es int) (unsafe.Pointer, int, error) {
	switch s := s.(type) {
	case []float64:
		if es == 8 && len(s) > 0 {
			return unsafe.Pointer(&s[0]), 8 * len(s), nil
		}
		return nil, 0, nil
	case []float32:
		if es == 4 && len(s) > 0 {
			return unsafe.Pointer(&s[0]), 4 * len(s), nil
		}
		return nil, 0, nil
	}
	return nil, 0, fmt.Errorf("gpu: internal error: host data of type %T", s)
}

func (backend) Upload(dst T.DeviceBuffer, off int, src any) error {
	b := dst.(*buffer)
	p, n, err := hostBytes(src, b.esize)
	if err != nil || n == 0 {
		return err
	}
	if off < 0 || off*b.esize+n > b.n*b.esize {
		return fmt.Errorf("gpu: internal error: upload of %d bytes at element %d into %d elements", n, off, b.n)
	}
	return b.st.l.HtoD(b.at(off), p, n)
}

func (backend) Download(dst any, src T.DeviceBuffer, off int) error {
	b := src.(*buffer)
	p, n, err := hostBytes(dst, b.esize)
	if err != nil || n == 0 {
		return err
	}
	if off < 0 || off*b.esize+n > b.n*b.esize {
		return fmt.Errorf("gpu: internal error: download of %d bytes at element %d from %d elements", n, off, b.n)
	}
	return b.st.l.DtoH(p, b.at(off), n)
}

func (backend) Sync(dev T.Device) error { return Sync(dev.ID) }
