package gpu

import (
	"fmt"
	"sync"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// Device returns the tensorops device of GPU id (0 for the first) and
// makes sure the CUDA backend is registered with tensorops, so that
// x.To(gpu.Device(0)) works. It does not touch the driver: that happens
// at the first transfer or op on the device, and a missing driver or
// device then panics in that op (check Available first).
func Device(id int) T.Device {
	register()
	return T.Device{Kind: T.CUDAKind, ID: id}
}

var registerOnce sync.Once

func register() {
	registerOnce.Do(func() { T.RegisterDevice(T.CUDAKind, backend{}) })
}

// Available reports whether a GPU can be used: nil when the CUDA driver
// loads and reports at least one device, else an error wrapping
// ErrNoDriver or ErrNoDevice. The first call loads the driver; later
// calls return the same answer.
func Available() error {
	_, err := driverCount()
	return err
}

// Count returns the number of CUDA devices, 0 when there is no driver.
func Count() int {
	n, _ := driverCount()
	return n
}

// Name describes device id (the GPU's name and compute capability), or
// the error that makes it unusable.
func Name(id int) (string, error) {
	st, err := state(id)
	if err != nil {
		return "", err
	}
	return st.l.Name(), nil
}

// Sync waits until the work queued on device id is done and returns its
// first error.
func Sync(id int) error {
	st, err := state(id)
	if err != nil {
		return err
	}
	return st.l.Sync()
}

// devState is what the backend keeps per device: the launcher that runs
// its kernels and its memory pool.
type devState struct {
	id    int
	l     launch.Launcher
	props launch.Props
	pool  pool
}

var devs struct {
	mu sync.Mutex
	m  map[int]*devState
	// hook, when not nil, makes a launcher for device id instead of the
	// CUDA driver (tests: the host shim).
	hook func(id int) launch.Launcher
}

// state returns the state of device id, opening it on first use.
func state(id int) (*devState, error) {
	devs.mu.Lock()
	defer devs.mu.Unlock()
	if st := devs.m[id]; st != nil {
		return st, nil
	}
	var l launch.Launcher
	if devs.hook != nil {
		l = devs.hook(id)
	} else {
		var err error
		if l, err = openDriver(id); err != nil {
			return nil, err
		}
	}
	if l == nil {
		return nil, fmt.Errorf("%w: cuda:%d", ErrNoDevice, id)
	}
	st := &devState{id: id, l: l, props: l.Props()}
	st.pool.l = l
	if devs.m == nil {
		devs.m = map[int]*devState{}
	}
	devs.m[id] = st
	return st, nil
}

// useLaunchers makes the devices opened from now on run on the launchers
// hook returns (nil: the CUDA driver again), forgetting the devices
// opened so far. Tensors on those must not be used afterwards. For tests.
func useLaunchers(hook func(id int) launch.Launcher) {
	register()
	devs.mu.Lock()
	defer devs.mu.Unlock()
	devs.hook = hook
	devs.m = nil
}
