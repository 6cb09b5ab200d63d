// A case of difftest written by hand: Newton's method for x³ + a·x = b,
// whose number of iterations depends on the data, and a branch on an
// active value.
//
//difftest:len 3

package p

// Root returns the real root of x³ + a·x = b for a > 0.
func Root(a, b float64) float64 {
	a = 1 + a*a
	x := b / a
	for it := 0; it < 50; it++ {
		f := x*x*x + a*x - b
		d := f / (3*x*x + a)
		x -= d
		if d*d < 1e-24 {
			break
		}
	}
	if x < 0 {
		return -x * x
	}
	return x * x
}
