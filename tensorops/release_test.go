package tensorops

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestRelease checks that a released buffer serves the next tensor of its
// dtype and size, zeroed, and leaves the released tensor without
// elements; that nil and small tensors are left alone; and that with
// poison the buffer is filled with NaN instead.
func TestRelease(t *testing.T) {
	defer func(p bool) { poison = p }(poison)
	poison = false
	for _, dt := range []DType{Float64, Float32} {
		a := New(dt, 64, 32)
		Fill(a, 3)
		p := bufAddr(a)
		Release(a, nil)
		if a.f64 != nil || a.f32 != nil {
			t.Fatalf("%v: the released tensor keeps its elements", dt)
		}
		// The pool holds nothing else of this size in this test.
		b := New(dt, 32, 64)
		if bufAddr(b) != p {
			t.Errorf("%v: a tensor of the released size has a new buffer", dt)
		}
		for i, x := range AsType(b, Float64).Float64s() {
			if x != 0 {
				t.Fatalf("%v: element %d of a reused buffer is %g, want 0", dt, i, x)
			}
		}
		if c := New(dt, 2048); bufAddr(c) == p {
			t.Errorf("%v: a buffer in use was given again", dt)
		}
	}
	small := New(Float64, 4)
	Release(small)
	if small.f64 == nil {
		t.Error("a small tensor was released")
	}
	poison = true
	x := New(Float64, 2048)
	Release(x)
	if !math.IsNaN(x.f64[0]) || !math.IsNaN(x.f64[2047]) {
		t.Error("with poison, the released buffer is not NaN")
	}
	view := Reshape(x, 64, 32) // another tensor of the same buffer
	func() {
		defer func() {
			if recover() == nil {
				t.Error("with poison, a second release of a buffer does not panic")
			}
		}()
		Release(view)
	}()
}

// bufAddr returns the address of t's first element.
func bufAddr(t *Tensor) any {
	if t.dtype == Float32 {
		return &t.f32[:1][0]
	}
	return &t.f64[:1][0]
}

// TestReleaseRaw checks the operations that take a reused buffer without
// zeroing it (they write every element): given a released buffer full of
// NaN, each computes what it computes in fresh memory, batched, broadcast
// and empty-inner-dimension products included.
func TestReleaseRaw(t *testing.T) {
	defer func(p bool) { poison = p }(poison)
	poison = false
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dt := range []DType{Float64, Float32} {
		a, b := RandN(rng, dt, 32, 64), RandN(rng, dt, 64, 48)
		bias := RandN(rng, dt, 48)
		e, f := RandN(rng, dt, 32, 0), RandN(rng, dt, 0, 48)
		ba, bb, b1 := RandN(rng, dt, 2, 32, 16), RandN(rng, dt, 2, 16, 48), RandN(rng, dt, 16, 48)
		for _, c := range []struct {
			name string
			f    func() *Tensor
		}{
			{"MatMul", func() *Tensor { return MatMul(a, b) }},
			{"MatMul, k = 0", func() *Tensor { return MatMul(e, f) }},
			{"batched MatMul", func() *Tensor { return MatMul(ba, bb) }},
			{"MatMulGradA", func() *Tensor { return MatMulGradA(MatMul(a, b), a, b, false, false) }},
			{"MatMulGradB", func() *Tensor { return MatMulGradB(MatMul(a, b), a, b, false, false) }},
			{"MatMulGradB, batch reduced", func() *Tensor { return MatMulGradB(MatMul(ba, b1), ba, b1, false, false) }},
			{"Tanh", func() *Tensor { return Tanh(MatMul(a, b)) }},
			{"Add, broadcast", func() *Tensor { return Add(MatMul(a, b), bias) }},
			{"Fuse", func() *Tensor { return Fuse("Tanh(a + b)*a", MatMul(a, b), bias) }},
		} {
			want := c.f()
			n := want.Size()
			for range 4 { // the pool may hold several buffers of the size
				stale := New(dt, n)
				Fill(stale, math.NaN())
				Release(stale)
			}
			got := c.f()
			if !reflect.DeepEqual(AsType(got, Float64).Float64s(), AsType(want, Float64).Float64s()) {
				t.Errorf("%v %s: a reused buffer changes the result", dt, c.name)
			}
		}
	}
}
