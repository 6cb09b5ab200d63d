package taylor

// want +2 "needs order=K"
//
//gad:taylor
func NoOrder(x float64) float64 { return x * x }

// want +2 "order=0: want an integer K with 1 ≤ K ≤ 12"
//
//gad:taylor order=0
func Zero(x float64) float64 { return x * x }

// want +2 "order=two: want an integer"
//
//gad:taylor order=two
func Word(x float64) float64 { return x * x }

// want +2 "order=13: want an integer K with 1 ≤ K ≤ 12"
//
//gad:taylor order=13
func Big(x float64) float64 { return x * x }

// want +2 "seed=curve: want seed=jet"
//
//gad:taylor order=2 seed=curve
func Seed(x float64) float64 { return x * x }

// want +2 "parameter dst: Fill writes through it, so a line-seeded jet"
//
//gad:taylor order=2 seed=line
func Fill(dst []float64, x float64) {
	for i := range dst {
		dst[i] = x * float64(i)
	}
}

// want +2 "lanes=0: want 1 to 16 directions"
//
//gad:taylor order=2 lanes=0
func NoLanes(x float64) float64 { return x * x }

// want +2 "lanes=17: want 1 to 16 directions"
//
//gad:taylor order=2 lanes=17
func ManyLanes(x float64) float64 { return x * x }
