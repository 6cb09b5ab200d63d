// Package launch defines what package gpu needs from something that runs
// its kernels: device memory, copies between host and device, and kernel
// launches by name with parameters packed into 8-byte slots. Two
// implementations exist: the CUDA driver API (package gpu, loaded at run
// time) and the host shim (package gpu/internal/kern, cgo, tests only),
// which runs the same kernels compiled as host C++.
package launch

import (
	"fmt"
	"math"
	"unsafe"
)

// Ptr is an address in a launcher's device memory.
type Ptr uint64

// Dim3 is a grid or block size, as CUDA's dim3. Zero components count as 1.
type Dim3 struct{ X, Y, Z uint32 }

// Props are the launcher's limits that launch configurations depend on.
type Props struct {
	// MaxThreadsPerBlock is the most threads a block may have (1024 on
	// CUDA GPUs; fewer on the host shim, whose threads are fibers).
	MaxThreadsPerBlock int
	// MultiProcessors is the number of SMs; grid-stride kernels launch a
	// few blocks per SM at most.
	MultiProcessors int
}

// Launcher runs kernels on one device. Its methods may be called from
// several goroutines; the work they queue runs in call order (one stream).
// Copies to the host and Sync wait for the work queued before them.
type Launcher interface {
	// Name describes the device, e.g. "NVIDIA H100 80GB HBM3 (sm_90)".
	Name() string
	Props() Props
	// Alloc returns bytes (> 0) of uninitialized device memory.
	Alloc(bytes int) (Ptr, error)
	Free(p Ptr) error
	// HtoD copies bytes from host memory src to dst; src may be reused
	// when it returns.
	HtoD(dst Ptr, src unsafe.Pointer, bytes int) error
	// DtoH copies bytes from src to host memory dst, after the queued work.
	DtoH(dst unsafe.Pointer, src Ptr, bytes int) error
	// Launch queues kernel (an extern "C" entry name) on grid×block
	// threads with shared bytes of dynamic shared memory and parameters a.
	Launch(kernel string, grid, block Dim3, shared int, a *Args) error
	// Sync waits for the queued work and returns its first error.
	Sync() error
}

// Kind is the ABI kind of a kernel parameter (see package gpu's doc):
// what the C parameter is, and what the PTX .param is.
type Kind uint8

const (
	KPtr  Kind = iota + 1 // T* (any element type): .u64
	KI64                  // long long: .u64
	KF64                  // double: .f64
	KF32                  // float: .f32
	KGeom                 // struct gad_geom by value: .b8 [GeomBytes], .align 8
	// KElem is the element type's scalar in a declaration that covers
	// both dtypes: KF64 in the _f64 kernel, KF32 in the _f32 one.
	KElem
)

// String returns the kind's C spelling.
func (k Kind) String() string {
	switch k {
	case KPtr:
		return "T*"
	case KI64:
		return "long long"
	case KF64:
		return "double"
	case KF32:
		return "float"
	case KGeom:
		return "gad_geom"
	case KElem:
		return "T"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MaxDims is the most dimensions a Geom describes (GAD_MAXDIM in geom.h);
// MaxOperands the most operands it gives strides for.
const (
	MaxDims     = 8
	MaxOperands = 3
)

// Geom is the geometry of an elementwise kernel's operands, passed by
// value: N elements over the row-major index space Shape[:ND], operand k
// at element offset Σ idx[d]·St[k][d] from its pointer. It mirrors
// struct gad_geom of geom.h field for field.
type Geom struct {
	N, ND int64
	Shape [MaxDims]int64
	St    [MaxOperands][MaxDims]int64
}

// GeomBytes is the size of Geom and of struct gad_geom.
const GeomBytes = int(unsafe.Sizeof(Geom{}))

const (
	// MaxParams is the most parameters a kernel may have.
	MaxParams = 24
	// MaxSlots is the most 8-byte slots the parameters may fill.
	MaxSlots = 96
)

// Args are a kernel's parameters in order, each in one 8-byte slot (a
// float in the low 4 bytes, little-endian) or, for a Geom, several. The
// zero value is empty; Reset empties it for reuse.
type Args struct {
	Slots [MaxSlots]uint64
	// End[i] is the slot after parameter i; Kinds[i] its kind.
	End   [MaxParams]uint8
	Kinds [MaxParams]Kind
	N     int // parameters
}

// Reset empties a.
func (a *Args) Reset() { a.N = 0 }

// used returns the slots taken.
func (a *Args) used() int {
	if a.N == 0 {
		return 0
	}
	return int(a.End[a.N-1])
}

func (a *Args) add(k Kind, v uint64) *Args {
	s := a.used()
	if a.N == MaxParams || s == MaxSlots {
		panic("gpu/internal/launch: too many kernel parameters")
	}
	a.Slots[s] = v
	a.Kinds[a.N], a.End[a.N] = k, uint8(s+1)
	a.N++
	return a
}

// Ptr appends a device pointer.
func (a *Args) Ptr(p Ptr) *Args { return a.add(KPtr, uint64(p)) }

// I64 appends a long long.
func (a *Args) I64(v int) *Args { return a.add(KI64, uint64(int64(v))) }

// F64 appends a double.
func (a *Args) F64(v float64) *Args { return a.add(KF64, math.Float64bits(v)) }

// F32 appends a float.
func (a *Args) F32(v float32) *Args { return a.add(KF32, uint64(math.Float32bits(v))) }

// Geom appends a geometry by value.
func (a *Args) Geom(g *Geom) *Args {
	const n = GeomBytes / 8
	s := a.used()
	if a.N == MaxParams || s+n > MaxSlots {
		panic("gpu/internal/launch: too many kernel parameters")
	}
	copy(a.Slots[s:s+n], unsafe.Slice((*uint64)(unsafe.Pointer(g)), n))
	a.Kinds[a.N], a.End[a.N] = KGeom, uint8(s+n)
	a.N++
	return a
}

// Start returns the first slot of parameter i.
func (a *Args) Start(i int) int {
	if i == 0 {
		return 0
	}
	return int(a.End[i-1])
}
