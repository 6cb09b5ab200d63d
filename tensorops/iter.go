package tensorops

import "fmt"

// broadcastShape returns the numpy broadcast of shapes a and b, and false
// when they do not broadcast.
func broadcastShape(a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db:
			out[i] = da
		case da == 1:
			out[i] = db
		case db == 1:
			out[i] = da
		default:
			return nil, false
		}
	}
	return out, true
}

// broadcastsTo reports whether shape a broadcasts to shape s (s unchanged).
func broadcastsTo(a, s []int) bool {
	if len(a) > len(s) {
		return false
	}
	d := len(s) - len(a)
	for i, x := range a {
		if x != 1 && x != s[d+i] {
			return false
		}
	}
	return true
}

func mustBroadcast(op string, a, b *Tensor) []int {
	s, ok := broadcastShape(a.shape, b.shape)
	if !ok {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v do not broadcast", op, a.shape, b.shape))
	}
	return s
}

// bstrides returns t's strides aligned to shape (which t broadcasts to),
// with zero strides along broadcast dimensions.
func bstrides(t *Tensor, shape []int) []int {
	st := make([]int, len(shape))
	d := len(shape) - len(t.shape)
	for i, x := range t.shape {
		if x == 1 {
			st[d+i] = 0
		} else {
			st[d+i] = t.strides[i]
		}
	}
	return st
}

// loop is a nest of loops over a common shape for up to three operands,
// each with its own strides (zero along broadcast dimensions) and offset.
// Dimensions of size 1 are dropped and adjacent dimensions merged where
// every operand allows, so a contiguous case is one flat loop. Up to 8
// dimensions live in the struct (no allocation).
type loop struct {
	shape []int // collapsed, at least one dimension
	st    [3][]int
	off   [3]int
	n     int // operands
	size  int
	buf   [4 * 8]int
}

// newLoop returns the loop over shape for the tensors ops, each of which
// broadcasts to shape.
func newLoop(shape []int, ops ...*Tensor) *loop {
	var buf [3][8]int
	var strides [3][]int
	var offs [3]int
	for k, t := range ops {
		st := buf[k][:0]
		if len(shape) > len(buf[k]) {
			st = make([]int, 0, len(shape))
		}
		d := len(shape) - len(t.shape)
		for i := range shape {
			x := 0
			if j := i - d; j >= 0 && t.shape[j] != 1 {
				x = t.strides[j]
			}
			st = append(st, x)
		}
		strides[k] = st
		offs[k] = t.offset
	}
	return newLoopStrides(shape, strides[:len(ops)], offs[:len(ops)])
}

func newLoopStrides(shape []int, strides [][]int, offs []int) *loop {
	l := &loop{n: len(strides), size: prod(shape)}
	l.shape = l.buf[0:0:8]
	for k := range strides {
		l.off[k] = offs[k]
		l.st[k] = l.buf[8*(k+1) : 8*(k+1) : 8*(k+2)]
	}
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if m := len(l.shape); m > 0 {
			ok := true
			for k := 0; k < l.n; k++ {
				if l.st[k][m-1] != strides[k][i]*d {
					ok = false
					break
				}
			}
			if ok {
				l.shape[m-1] *= d
				for k := 0; k < l.n; k++ {
					l.st[k][m-1] = strides[k][i]
				}
				continue
			}
		}
		l.shape = append(l.shape, d)
		for k := 0; k < l.n; k++ {
			l.st[k] = append(l.st[k], strides[k][i])
		}
	}
	if len(l.shape) == 0 {
		l.shape = append(l.shape, 1)
		for k := 0; k < l.n; k++ {
			l.st[k] = append(l.st[k], 0)
		}
	}
	return l
}

// inner returns operand k's stride along the innermost dimension.
func (l *loop) inner(k int) int { return l.st[k][len(l.shape)-1] }

// each calls f for the runs of the innermost dimension that cover the
// elements [lo, hi) of the loop in row-major order, with the operands'
// offsets of the run's first element and its length.
func (l *loop) each(lo, hi int, f func(o [3]int, n int)) {
	if lo >= hi {
		return
	}
	nd := len(l.shape)
	inner := l.shape[nd-1]
	var idx [16]int
	var ix []int
	if nd-1 <= len(idx) {
		ix = idx[:nd-1]
	} else {
		ix = make([]int, nd-1)
	}
	outer := lo / inner
	start := lo % inner
	var o [3]int
	o = l.off
	for i := nd - 2; i >= 0; i-- {
		ix[i] = outer % l.shape[i]
		outer /= l.shape[i]
		for k := 0; k < l.n; k++ {
			o[k] += ix[i] * l.st[k][i]
		}
	}
	for k := 0; k < l.n; k++ {
		o[k] += start * l.st[k][nd-1]
	}
	pos := lo
	for pos < hi {
		cnt := min(inner-start, hi-pos)
		f(o, cnt)
		pos += cnt
		if pos >= hi {
			return
		}
		// Next row: back to the row's start, then odometer.
		for k := 0; k < l.n; k++ {
			o[k] -= start * l.st[k][nd-1]
		}
		start = 0
		for i := nd - 2; i >= 0; i-- {
			ix[i]++
			for k := 0; k < l.n; k++ {
				o[k] += l.st[k][i]
			}
			if ix[i] < l.shape[i] {
				break
			}
			for k := 0; k < l.n; k++ {
				o[k] -= ix[i] * l.st[k][i]
			}
			ix[i] = 0
		}
	}
}
